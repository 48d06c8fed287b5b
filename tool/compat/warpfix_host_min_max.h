// Forced into every parse by warpfix. nvcc declares min and max for host code
// as well as device code (CUDA's crt/math_functions.h and .hpp, all of them
// __host__ __device__); clang's CUDA wrapper declares them for the device
// only. Host code that calls them, such as `int block = min(n, 256);` before
// a launch, did not parse, and an error in what sizes a launch withholds the
// fixes of the kernel it launches. These are nvcc's host overloads, with the
// same signatures and linkage, so that what nvcc accepts parses and what it
// rejects (a `static int min(int, int)` of the user's) still does not. The
// device overloads are clang's, and win in device code. Nothing is ever
// compiled from this parse, so the bodies only have to exist.
#pragma once
#pragma clang system_header
#if defined(__cplusplus) && defined(__CUDA_ARCH__)
extern __host__ int min(const int a, const int b);
static inline __host__ unsigned int min(const unsigned int a, const unsigned int b) {
  return a < b ? a : b;
}
static inline __host__ unsigned int min(const int a, const unsigned int b) {
  return a < b ? a : b;
}
static inline __host__ unsigned int min(const unsigned int a, const int b) {
  return a < b ? a : b;
}
static inline __host__ long int min(const long int a, const long int b) {
  return a < b ? a : b;
}
static inline __host__ unsigned long int min(const unsigned long int a, const unsigned long int b) {
  return a < b ? a : b;
}
static inline __host__ unsigned long int min(const long int a, const unsigned long int b) {
  return a < b ? a : b;
}
static inline __host__ unsigned long int min(const unsigned long int a, const long int b) {
  return a < b ? a : b;
}
static inline __host__ long long int min(const long long int a, const long long int b) {
  return a < b ? a : b;
}
static inline __host__ unsigned long long int min(const unsigned long long int a, const unsigned long long int b) {
  return a < b ? a : b;
}
static inline __host__ unsigned long long int min(const long long int a, const unsigned long long int b) {
  return a < b ? a : b;
}
static inline __host__ unsigned long long int min(const unsigned long long int a, const long long int b) {
  return a < b ? a : b;
}
static inline __host__ float min(const float a, const float b) {
  return a < b ? a : b;
}
static inline __host__ double min(const double a, const double b) {
  return a < b ? a : b;
}
static inline __host__ double min(const float a, const double b) {
  return a < b ? a : b;
}
static inline __host__ double min(const double a, const float b) {
  return a < b ? a : b;
}
extern __host__ int max(const int a, const int b);
static inline __host__ unsigned int max(const unsigned int a, const unsigned int b) {
  return a > b ? a : b;
}
static inline __host__ unsigned int max(const int a, const unsigned int b) {
  return a > b ? a : b;
}
static inline __host__ unsigned int max(const unsigned int a, const int b) {
  return a > b ? a : b;
}
static inline __host__ long int max(const long int a, const long int b) {
  return a > b ? a : b;
}
static inline __host__ unsigned long int max(const unsigned long int a, const unsigned long int b) {
  return a > b ? a : b;
}
static inline __host__ unsigned long int max(const long int a, const unsigned long int b) {
  return a > b ? a : b;
}
static inline __host__ unsigned long int max(const unsigned long int a, const long int b) {
  return a > b ? a : b;
}
static inline __host__ long long int max(const long long int a, const long long int b) {
  return a > b ? a : b;
}
static inline __host__ unsigned long long int max(const unsigned long long int a, const unsigned long long int b) {
  return a > b ? a : b;
}
static inline __host__ unsigned long long int max(const long long int a, const unsigned long long int b) {
  return a > b ? a : b;
}
static inline __host__ unsigned long long int max(const unsigned long long int a, const long long int b) {
  return a > b ? a : b;
}
static inline __host__ float max(const float a, const float b) {
  return a > b ? a : b;
}
static inline __host__ double max(const double a, const double b) {
  return a > b ? a : b;
}
static inline __host__ double max(const float a, const double b) {
  return a > b ? a : b;
}
static inline __host__ double max(const double a, const float b) {
  return a > b ? a : b;
}
#endif
