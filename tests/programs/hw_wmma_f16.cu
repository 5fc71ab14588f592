// H200 reference program: wmma f16 fragment layouts and results (body in hw_wmma.h)
// NVCCFLAGS: -arch=sm_90
#define HW_F16
#include "hw_wmma.h"
