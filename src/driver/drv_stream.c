/* drv_stream.c - streams, events and stream-captured graphs: the runtime's objects (CUstream is cudaStream_t,
 * CUevent is cudaEvent_t, CUgraph is cudaGraph_t; the flag values are shared). */
#include "drv_internal.h"

/* cuStreamCreate: a stream (CU_STREAM_NON_BLOCKING = cudaStreamNonBlocking). */
WS_DRV_EXPORT CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
    WS_DRV_ENTER_CTX();
    if (!phStream || (Flags & ~(unsigned)CU_STREAM_NON_BLOCKING)) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    WS_DRV_RT(cudaStreamCreateWithFlags((cudaStream_t *)phStream, Flags));
}

/* cuStreamCreateWithPriority: a stream with a priority. */
WS_DRV_EXPORT CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)
{
    WS_DRV_ENTER_CTX();
    if (!phStream || (flags & ~(unsigned)CU_STREAM_NON_BLOCKING)) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    WS_DRV_RT(cudaStreamCreateWithPriority((cudaStream_t *)phStream, flags, priority));
}

/* cuStreamDestroy_v2: destroy a stream. */
WS_DRV_EXPORT CUresult cuStreamDestroy_v2(CUstream hStream)
{
    WS_DRV_ENTER_CTX();
    if (!hStream) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    WS_DRV_RT(cudaStreamDestroy((cudaStream_t)hStream));
}

/* cuStreamDestroy: the oldest name. */
WS_DRV_EXPORT CUresult cuStreamDestroy(CUstream hStream) { return cuStreamDestroy_v2(hStream); }

/* cuStreamSynchronize: wait for a stream's work. */
WS_DRV_EXPORT CUresult cuStreamSynchronize(CUstream hStream)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaStreamSynchronize((cudaStream_t)hStream));
}

/* cuStreamQuery: whether a stream's work is done. */
WS_DRV_EXPORT CUresult cuStreamQuery(CUstream hStream)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaStreamQuery((cudaStream_t)hStream));
}

/* cuStreamGetPriority: a stream's priority. */
WS_DRV_EXPORT CUresult cuStreamGetPriority(CUstream hStream, int *priority)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaStreamGetPriority((cudaStream_t)hStream, priority));
}

/* cuStreamGetFlags: a stream's flags. */
WS_DRV_EXPORT CUresult cuStreamGetFlags(CUstream hStream, unsigned int *flags)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaStreamGetFlags((cudaStream_t)hStream, flags));
}

/* cuStreamGetId: a stream's unique id. */
WS_DRV_EXPORT CUresult cuStreamGetId(CUstream hStream, unsigned long long *streamId)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaStreamGetId((cudaStream_t)hStream, streamId));
}

/* cuStreamGetCtx: a stream's context (every stream lives in the one device's context). */
WS_DRV_EXPORT CUresult cuStreamGetCtx(CUstream hStream, CUcontext *pctx)
{
    WS_DRV_ENTER_CTX();
    if (!pctx) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    unsigned flags = 0;
    if (cudaStreamGetFlags((cudaStream_t)hStream, &flags) != cudaSuccess) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    *pctx = (CUcontext)ws_drv_current();
    return CUDA_SUCCESS;
}

/* cuStreamGetDevice: a stream's device. */
WS_DRV_EXPORT CUresult cuStreamGetDevice(CUstream hStream, CUdevice *device)
{
    WS_DRV_ENTER_CTX();
    if (!device) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    int d = 0;
    cudaError_t e = cudaStreamGetDevice((cudaStream_t)hStream, &d);
    *device = d;
    WS_DRV_RT(e);
}

/* cuStreamWaitEvent: later work of the stream waits for the event. */
WS_DRV_EXPORT CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaStreamWaitEvent((cudaStream_t)hStream, (cudaEvent_t)hEvent, Flags));
}

/* cuStreamAddCallback: a callback in stream order (CUstreamCallback has cudaStreamCallback_t's shape). */
WS_DRV_EXPORT CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData,
                                           unsigned int flags)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaStreamAddCallback((cudaStream_t)hStream, (cudaStreamCallback_t)(void (*)(void))callback, userData,
                                    flags));
}

/* cuStreamBeginCapture_v2: start capturing a stream's work into a graph. */
WS_DRV_EXPORT CUresult cuStreamBeginCapture_v2(CUstream hStream, CUstreamCaptureMode mode)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaStreamBeginCapture((cudaStream_t)hStream, (enum cudaStreamCaptureMode)mode));
}

/* cuStreamBeginCapture: the CUDA 10.0 form (global capture mode). */
WS_DRV_EXPORT CUresult cuStreamBeginCapture(CUstream hStream)
{
    return cuStreamBeginCapture_v2(hStream, CU_STREAM_CAPTURE_MODE_GLOBAL);
}

/* cuStreamEndCapture: the captured graph. */
WS_DRV_EXPORT CUresult cuStreamEndCapture(CUstream hStream, CUgraph *phGraph)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaStreamEndCapture((cudaStream_t)hStream, (cudaGraph_t *)phGraph));
}

/* cuStreamIsCapturing: a stream's capture status (the enums agree). */
WS_DRV_EXPORT CUresult cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus *captureStatus)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaStreamIsCapturing((cudaStream_t)hStream, (enum cudaStreamCaptureStatus *)captureStatus));
}

/* cuGraphInstantiateWithFlags: an executable graph. */
WS_DRV_EXPORT CUresult cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec, CUgraph hGraph, unsigned long long flags)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaGraphInstantiateWithFlags((cudaGraphExec_t *)phGraphExec, (cudaGraph_t)hGraph, flags));
}

/* cuGraphLaunch: run an executable graph on a stream. */
WS_DRV_EXPORT CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaGraphLaunch((cudaGraphExec_t)hGraphExec, (cudaStream_t)hStream));
}

/* cuGraphExecDestroy: free an executable graph. */
WS_DRV_EXPORT CUresult cuGraphExecDestroy(CUgraphExec hGraphExec)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaGraphExecDestroy((cudaGraphExec_t)hGraphExec));
}

/* cuGraphDestroy: free a graph. */
WS_DRV_EXPORT CUresult cuGraphDestroy(CUgraph hGraph)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaGraphDestroy((cudaGraph_t)hGraph));
}

/* ---- events ---- */

/* cuEventCreate: an event (CU_EVENT_* flags equal cudaEvent* flags). */
WS_DRV_EXPORT CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
    WS_DRV_ENTER_CTX();
    if (!phEvent) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    WS_DRV_RT(cudaEventCreateWithFlags((cudaEvent_t *)phEvent, Flags));
}

/* cuEventDestroy_v2: destroy an event. */
WS_DRV_EXPORT CUresult cuEventDestroy_v2(CUevent hEvent)
{
    WS_DRV_ENTER_CTX();
    if (!hEvent) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    WS_DRV_RT(cudaEventDestroy((cudaEvent_t)hEvent));
}

/* cuEventDestroy: the oldest name. */
WS_DRV_EXPORT CUresult cuEventDestroy(CUevent hEvent) { return cuEventDestroy_v2(hEvent); }

/* cuEventRecord: record an event on a stream. */
WS_DRV_EXPORT CUresult cuEventRecord(CUevent hEvent, CUstream hStream)
{
    WS_DRV_ENTER_CTX();
    if (!hEvent) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    WS_DRV_RT(cudaEventRecord((cudaEvent_t)hEvent, (cudaStream_t)hStream));
}

/* cuEventRecordWithFlags: the same with flags. */
WS_DRV_EXPORT CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags)
{
    WS_DRV_ENTER_CTX();
    if (!hEvent) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    WS_DRV_RT(cudaEventRecordWithFlags((cudaEvent_t)hEvent, (cudaStream_t)hStream, flags));
}

/* cuEventQuery: whether an event has completed. */
WS_DRV_EXPORT CUresult cuEventQuery(CUevent hEvent)
{
    WS_DRV_ENTER_CTX();
    if (!hEvent) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    WS_DRV_RT(cudaEventQuery((cudaEvent_t)hEvent));
}

/* cuEventSynchronize: wait for an event. */
WS_DRV_EXPORT CUresult cuEventSynchronize(CUevent hEvent)
{
    WS_DRV_ENTER_CTX();
    if (!hEvent) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    WS_DRV_RT(cudaEventSynchronize((cudaEvent_t)hEvent));
}

/* cuEventElapsedTime_v2: milliseconds between two events (simulated time in timing mode). */
WS_DRV_EXPORT CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    WS_DRV_ENTER_CTX();
    if (!pMilliseconds) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    if (!hStart || !hEnd) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    WS_DRV_RT(cudaEventElapsedTime(pMilliseconds, (cudaEvent_t)hStart, (cudaEvent_t)hEnd));
}

/* cuEventElapsedTime: the CUDA 12 name. */
WS_DRV_EXPORT CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    return cuEventElapsedTime_v2(pMilliseconds, hStart, hEnd);
}

/* the per-thread default stream forms */
WS_DRV_PT_ALIAS(cuStreamQuery, cuStreamQuery_ptsz);
WS_DRV_PT_ALIAS(cuStreamSynchronize, cuStreamSynchronize_ptsz);
WS_DRV_PT_ALIAS(cuStreamGetPriority, cuStreamGetPriority_ptsz);
WS_DRV_PT_ALIAS(cuStreamGetFlags, cuStreamGetFlags_ptsz);
WS_DRV_PT_ALIAS(cuStreamGetId, cuStreamGetId_ptsz);
WS_DRV_PT_ALIAS(cuStreamGetCtx, cuStreamGetCtx_ptsz);
WS_DRV_PT_ALIAS(cuStreamGetDevice, cuStreamGetDevice_ptsz);
WS_DRV_PT_ALIAS(cuStreamWaitEvent, cuStreamWaitEvent_ptsz);
WS_DRV_PT_ALIAS(cuStreamAddCallback, cuStreamAddCallback_ptsz);
WS_DRV_PT_ALIAS(cuStreamBeginCapture, cuStreamBeginCapture_ptsz);
WS_DRV_PT_ALIAS(cuStreamBeginCapture_v2, cuStreamBeginCapture_v2_ptsz);
WS_DRV_PT_ALIAS(cuStreamEndCapture, cuStreamEndCapture_ptsz);
WS_DRV_PT_ALIAS(cuStreamIsCapturing, cuStreamIsCapturing_ptsz);
WS_DRV_PT_ALIAS(cuGraphLaunch, cuGraphLaunch_ptsz);
WS_DRV_PT_ALIAS(cuEventRecord, cuEventRecord_ptsz);
WS_DRV_PT_ALIAS(cuEventRecordWithFlags, cuEventRecordWithFlags_ptsz);
