#pragma once
/* Marks this toolkit so that tests can tell which one was used. */
#define WARPFIX_FAKE_CUDA_TOOLKIT 1
#define CUDA_VERSION 12000
typedef unsigned int cuuint32_t;
typedef unsigned long long cuuint64_t;
