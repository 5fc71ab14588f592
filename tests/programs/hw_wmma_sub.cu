// H200 reference program: wmma sub-byte (u4/s4 m8n8k32, b1 m8n8k128) fragment layouts and results (body in hw_wmma.h)
// NVCCFLAGS: -arch=sm_90
#define HW_SUB
#include "hw_wmma.h"
