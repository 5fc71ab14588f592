// H200 reference program: wmma tf32 fragment layouts and results (body in hw_wmma.h)
// NVCCFLAGS: -arch=sm_90
#define HW_TF32
#include "hw_wmma.h"
