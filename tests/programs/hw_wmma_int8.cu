// H200 reference program: wmma int8 fragment layouts and results (body in hw_wmma.h)
// NVCCFLAGS: -arch=sm_90
#define HW_INT8
#include "hw_wmma.h"
