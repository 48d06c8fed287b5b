// What the launches in sight say about the blocks a kernel runs in. A
// launch that is not understood, or a kernel whose address escapes, leaves
// the shape unknown: never "proven".
#include "unittests/analysis/ParsedUnit.h"
#include "gtest/gtest.h"

namespace warpfix::test {
namespace {

BlockShape shapeOf(llvm::StringRef Code, llvm::StringRef Kernel) {
  ParsedUnit Unit(Code);
  EXPECT_TRUE(Unit.parsed()) << Unit.errors();
  if (!Unit.parsed())
    return {};
  return Unit.analyses().Shapes.in(&Unit.function(Kernel));
}

WarpAssumptions::Launches launchesOf(llvm::StringRef Code,
                                     llvm::StringRef Kernel) {
  ParsedUnit Unit(Code);
  EXPECT_TRUE(Unit.parsed()) << Unit.errors();
  if (!Unit.parsed())
    return {};
  return Unit.analyses().Shapes.launchesOf(&Unit.function(Kernel));
}

TEST(WarpAssumptions, StaticKernelLaunchedWithWholeWarpsIsProven) {
  BlockShape Shape = shapeOf("static __global__ void k(int *p) {}"
                             "void host(int *p) { k<<<4, 64>>>(p); }",
                             "k");
  EXPECT_EQ(BlockShape::Proven, Shape.WholeWarps);
  EXPECT_EQ(BlockShape::Proven, Shape.OneDimensional);
  EXPECT_FALSE(Shape.ShownOtherwise);
}

TEST(WarpAssumptions, LaunchOfFortyEightThreadsContradictsWholeWarps) {
  BlockShape Shape = shapeOf("__global__ void k(int *p) {}"
                             "void host(int *p) { k<<<4, 48>>>(p); }",
                             "k");
  EXPECT_EQ(BlockShape::Contradicted, Shape.WholeWarps);
  EXPECT_TRUE(Shape.ShownOtherwise);
}

// Another unit may launch a kernel of external linkage with any shape.
TEST(WarpAssumptions, ExternalKernelIsOnlyKnownForThisUnit) {
  BlockShape Shape = shapeOf("__global__ void k(int *p) {}"
                             "void host(int *p) { k<<<4, 64>>>(p); }",
                             "k");
  EXPECT_EQ(BlockShape::InUnit, Shape.WholeWarps);
}

TEST(WarpAssumptions, TwoDimensionalBlockIsNotOneDimensional) {
  BlockShape Shape = shapeOf("static __global__ void k(int *p) {}"
                             "void host(int *p) {"
                             "  k<<<4, dim3(32, 4)>>>(p); }",
                             "k");
  EXPECT_EQ(BlockShape::Contradicted, Shape.OneDimensional);
}

TEST(WarpAssumptions, LaunchSizeThatIsNotAConstantIsNotProven) {
  BlockShape Shape = shapeOf("static __global__ void k(int *p) {}"
                             "void host(int *p, int n) { k<<<4, n>>>(p); }",
                             "k");
  EXPECT_NE(BlockShape::Proven, Shape.WholeWarps);
  EXPECT_NE(BlockShape::InUnit, Shape.WholeWarps);
}

// A kernel launched through its address (cudaLaunchKernel) has launches
// that the chevrons do not show.
TEST(WarpAssumptions, KernelWhoseAddressEscapesIsNotProven) {
  BlockShape Shape =
      shapeOf("static __global__ void k(int *p) {}"
              "void host(int *p) {"
              "  k<<<4, 64>>>(p);"
              "  void *args[] = {&p};"
              "  cudaLaunchKernel((const void *)k, 4, 48, args, 0, 0); }",
              "k");
  EXPECT_NE(BlockShape::Proven, Shape.WholeWarps);
}

TEST(WarpAssumptions, LaunchesOfStaticKernelAreAllInSight) {
  WarpAssumptions::Launches Launches = launchesOf(
      "static __global__ void k(int *p) {}"
      "void host(int *p) { k<<<4, 64>>>(p); k<<<2, dim3(32, 2)>>>(p); }",
      "k");
  ASSERT_EQ(2u, Launches.Sizes.size());
  EXPECT_EQ((BlockSize{64, 1, 1}), Launches.Sizes[0]);
  EXPECT_EQ((BlockSize{32, 2, 1}), Launches.Sizes[1]);
  EXPECT_FALSE(Launches.OthersPossible);
}

// Other units' launches of a kernel of external linkage are assumed to be
// like this unit's (the default assumption), and the launches say so, for
// the note that names the assumption.
TEST(WarpAssumptions, ExternalKernelAssumesOtherUnitsLaunchAlike) {
  WarpAssumptions::Launches Launches =
      launchesOf("__global__ void k(int *p) {}"
                 "void host(int *p) { k<<<4, 64>>>(p); }",
                 "k");
  EXPECT_FALSE(Launches.OtherUnits.empty());
  ASSERT_EQ(1u, Launches.Sizes.size());
}

TEST(WarpAssumptions, KernelWithNoLaunchInSightMayRunInAnyBlock) {
  WarpAssumptions::Launches Launches =
      launchesOf("static __global__ void k(int *p) {}", "k");
  EXPECT_TRUE(Launches.Sizes.empty());
  EXPECT_TRUE(Launches.OthersPossible);
}

TEST(WarpAssumptions, KernelStoredInAVariableMayHaveLaunchesNotInSight) {
  WarpAssumptions::Launches Launches =
      launchesOf("static __global__ void k(int *p) {}"
                 "void (*kernel)(int *) = k;"
                 "void host(int *p) { k<<<4, 64>>>(p); }",
                 "k");
  EXPECT_TRUE(Launches.OthersPossible);
}

TEST(WarpAssumptions, DeviceFunctionTakesTheShapeOfItsKernels) {
  BlockShape Shape = shapeOf("static __device__ void f(int *p) { p[0] = 1; }"
                             "static __global__ void k(int *p) { f(p); }"
                             "void host(int *p) { k<<<4, 48>>>(p); }",
                             "f");
  EXPECT_EQ(BlockShape::Contradicted, Shape.WholeWarps);
}

} // namespace
} // namespace warpfix::test
