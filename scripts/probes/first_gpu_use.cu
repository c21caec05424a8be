// Times each step of a process's first use of the GPU (driver init, context,
// allocations, NVRTC, module load, first launch), to place the one-time cost a
// freshly started GPU machine charges its first GPU process.
// Built and run on the GPU machine by scripts/probes/first-gpu-use.sh.
#include <chrono>
#include <cstdio>
#include <cuda.h>
#include <nvrtc.h>
static double t0;
static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
static void step(const char *what, int rc) {
  double t = now();
  std::printf("%-44s rc %-4d %8.3f s\n", what, rc, t - t0);
  t0 = t;
}
int main() {
  t0 = now();
  step("start", 0);
  step("cuInit", cuInit(0));
  CUdevice dev; step("cuDeviceGet", cuDeviceGet(&dev, 0));
  CUcontext ctx; step("cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain(&ctx, dev));
  step("cuCtxSetCurrent", cuCtxSetCurrent(ctx));
  CUdeviceptr d; step("cuMemAlloc 64 MiB", cuMemAlloc(&d, 64 << 20));
  CUdeviceptr d2; step("cuMemAlloc 4 GiB", cuMemAlloc(&d2, 4ull << 30));
  void *h; step("cuMemAllocHost 64 MiB", cuMemAllocHost(&h, 64 << 20));
  const char *src = "extern \"C\" __global__ void k(unsigned *p){ p[threadIdx.x] += threadIdx.x; }";
  nvrtcProgram prog; step("nvrtcCreateProgram", nvrtcCreateProgram(&prog, src, "k.cu", 0, 0, 0));
  const char *opts[] = {"--gpu-architecture=sm_90"};
  step("nvrtcCompileProgram", nvrtcCompileProgram(prog, 1, opts));
  size_t n; nvrtcGetCUBINSize(prog, &n); char *cubin = new char[n]; step("nvrtcGetCUBIN", nvrtcGetCUBIN(prog, cubin));
  CUmodule m; step("cuModuleLoadData", cuModuleLoadData(&m, cubin));
  CUfunction f; step("cuModuleGetFunction", cuModuleGetFunction(&f, m, "k"));
  void *args[] = {&d};
  step("cuLaunchKernel 1", cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, 0, args, 0));
  step("cuCtxSynchronize 1", cuCtxSynchronize());
  step("cuLaunchKernel 2", cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, 0, args, 0));
  step("cuCtxSynchronize 2", cuCtxSynchronize());
  step("cuMemsetD8 4 GiB", cuMemsetD8(d2, 0, 4ull << 30));
  step("cuCtxSynchronize 3", cuCtxSynchronize());
  return 0;
}
