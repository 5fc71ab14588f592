// H200 reference program: wmma bf16 fragment layouts and results (body in hw_wmma.h)
// NVCCFLAGS: -arch=sm_90
#define HW_BF16
#include "hw_wmma.h"
