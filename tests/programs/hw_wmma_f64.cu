// H200 reference program: wmma f64 fragment layouts and results (body in hw_wmma.h)
// NVCCFLAGS: -arch=sm_90
#define HW_F64
#include "hw_wmma.h"
