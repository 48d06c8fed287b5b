// What LaneDependence says a value is: the same for the whole grid, for a
// warp, or for each lane. A value called uniform that is not makes a full
// mask of a call that only some lanes reach, which hangs or reads garbage on
// the GPU; these facts are the ones such fixes rested on.
#include "unittests/analysis/ParsedUnit.h"
#include "gtest/gtest.h"

namespace warpfix::test {
namespace {

LaneValue::Kind kindOfInitializer(llvm::StringRef Code,
                                  llvm::StringRef Variable) {
  ParsedUnit Unit(Code);
  EXPECT_TRUE(Unit.parsed()) << Unit.errors();
  if (!Unit.parsed())
    return LaneValue::Uniform;
  return Unit.analyses().Lanes.of(&Unit.initializer(Variable)).What;
}

/// The kind of the value that `probe(v)` is passed: the value of v where
/// the probe reads it, after whatever the kernel did to v before.
LaneValue::Kind kindAtProbe(llvm::StringRef Code) {
  ParsedUnit Unit(Code);
  EXPECT_TRUE(Unit.parsed()) << Unit.errors();
  if (!Unit.parsed())
    return LaneValue::Uniform;
  const clang::CallExpr &Probe = Unit.call("probe");
  return Unit.analyses().Lanes.of(Probe.getArg(0)).What;
}

constexpr llvm::StringLiteral Probe = "__device__ void probe(int);\n";

TEST(LaneDependence, ThreadIndexIsItsOwnKind) {
  EXPECT_EQ(
      LaneValue::ThreadIndex,
      kindOfInitializer("__global__ void k() { int t = threadIdx.x; }", "t"));
}

TEST(LaneDependence, LaneNumberIsLaneDependent) {
  EXPECT_EQ(
      LaneValue::LaneDependent,
      kindOfInitializer("__global__ void k() { int lane = threadIdx.x & 31; }",
                        "lane"));
}

TEST(LaneDependence, BlockIndexAndParametersAreUniform) {
  EXPECT_EQ(
      LaneValue::Uniform,
      kindOfInitializer(
          "__global__ void k(int n) { int b = blockIdx.x * n + 3; }", "b"));
}

TEST(LaneDependence, WarpNumberIsWarpUniform) {
  EXPECT_EQ(
      LaneValue::WarpUniform,
      kindOfInitializer("__global__ void k() { int warp = threadIdx.x / 32; }",
                        "warp"));
}

TEST(LaneDependence, BallotOfEveryLaneIsWarpUniform) {
  EXPECT_EQ(LaneValue::WarpUniform,
            kindOfInitializer("__global__ void k(const int *in) {"
                              "  unsigned b = __ballot_sync(0xffffffff,"
                              "                             in[threadIdx.x]);"
                              "}",
                              "b"));
}

TEST(LaneDependence, LoadAtALaneAddressIsLaneDependent) {
  EXPECT_EQ(LaneValue::LaneDependent,
            kindOfInitializer(
                "__global__ void k(const int *in) { int v = in[threadIdx.x]; }",
                "v"));
}

// A field is what its constructor stores, not only what the construction
// passes: a default member initializer that reads the lane.
TEST(LaneDependence, FieldOfDefaultMemberInitializerFollowsTheLane) {
  EXPECT_EQ(LaneValue::LaneDependent,
            kindAtProbe((Probe + "struct Lane { int id = threadIdx.x & 31; };"
                                 "__global__ void k() { Lane l; probe(l.id); }")
                            .str()));
}

TEST(LaneDependence, FieldStoredByConstructorBodyFollowsTheLane) {
  EXPECT_EQ(
      LaneValue::LaneDependent,
      kindAtProbe((Probe + "struct Lane { int id;"
                           "  __device__ Lane() { id = threadIdx.x & 31; }"
                           "};"
                           "__global__ void k() { Lane l; probe(l.id); }")
                      .str()));
}

TEST(LaneDependence, FieldOfInvisibleConstructorIsNotUniform) {
  LaneValue::Kind Kind =
      kindAtProbe((Probe + "struct Opaque { int id; __device__ Opaque(); };"
                           "__global__ void k() { Opaque o; probe(o.id); }")
                      .str());
  EXPECT_NE(LaneValue::Uniform, Kind);
  EXPECT_NE(LaneValue::WarpUniform, Kind);
}

TEST(LaneDependence, FieldOfUniformConstructorIsUniform) {
  EXPECT_EQ(
      LaneValue::Uniform,
      kindAtProbe((Probe + "struct Twice { int n;"
                           "  __device__ explicit Twice(int b) { n = b * 2; }"
                           "};"
                           "__global__ void k() {"
                           "  Twice t(blockIdx.x); probe(t.n); }")
                      .str()));
}

// An address that escapes lets the callee store anything: the local is
// unknown after the call, never what it held before.
TEST(LaneDependence, LocalWhoseAddressEscapesIsNotUniform) {
  LaneValue::Kind Kind =
      kindAtProbe((Probe + "__device__ void fill(int *);"
                           "__global__ void k() {"
                           "  int v = blockIdx.x; fill(&v); probe(v); }")
                      .str());
  EXPECT_EQ(LaneValue::LaneDependent, Kind);
}

TEST(LaneDependence, LocalThroughReferenceParameterFollowsTheStore) {
  EXPECT_EQ(LaneValue::LaneDependent,
            kindAtProbe((Probe + "__device__ void lane(int &v) {"
                                 "  v = threadIdx.x % 32; }"
                                 "__global__ void k() {"
                                 "  int v = 0; lane(v); probe(v); }")
                            .str()));
}

TEST(LaneDependence, AssignmentUnderLaneConditionMakesLocalLaneDependent) {
  EXPECT_EQ(LaneValue::LaneDependent,
            kindAtProbe((Probe + "__global__ void k() {"
                                 "  int v = 0;"
                                 "  if (threadIdx.x % 32 < 5) v = 1;"
                                 "  probe(v); }")
                            .str()));
}

TEST(LaneDependence, UniformLoopCounterIsUniform) {
  EXPECT_EQ(LaneValue::Uniform,
            kindAtProbe((Probe + "__global__ void k(int n) {"
                                 "  for (int i = 0; i < n; ++i) probe(i); }")
                            .str()));
}

TEST(LaneDependence, ThreadStridedLoopCounterIsNotUniform) {
  LaneValue::Kind Kind =
      kindAtProbe((Probe + "__global__ void k(int n) {"
                           "  for (int i = threadIdx.x; i < n; i += 32)"
                           "    probe(i); }")
                      .str());
  EXPECT_NE(LaneValue::Uniform, Kind);
  EXPECT_NE(LaneValue::WarpUniform, Kind);
}

TEST(LaneDependence, ParameterOfDeviceFunctionIsJoinedOverItsCalls) {
  EXPECT_EQ(LaneValue::LaneDependent,
            kindAtProbe((Probe + "__device__ void f(int x) { probe(x); }"
                                 "__global__ void k() {"
                                 "  f(blockIdx.x); f(threadIdx.x & 31); }")
                            .str()));
}

TEST(LaneDependence, ParameterOfUniformCallsIsUniform) {
  EXPECT_EQ(LaneValue::Uniform,
            kindAtProbe((Probe + "static __device__ void f(int x) { probe(x); }"
                                 "__global__ void k(int n) {"
                                 "  f(blockIdx.x); f(n); }")
                            .str()));
}

// A device function with external linkage may be called from another unit,
// with any argument.
TEST(LaneDependence, ParameterOfEscapingFunctionIsNotUniform) {
  LaneValue::Kind Kind =
      kindAtProbe((Probe + "__device__ void f(int x) { probe(x); }"
                           "__device__ void (*table)(int) = f;"
                           "__global__ void k() { f(blockIdx.x); }")
                      .str());
  EXPECT_EQ(LaneValue::LaneDependent, Kind);
}

TEST(LaneDependence, BroadcastFromOneLaneIsUniform) {
  LaneValue::Kind Kind = kindOfInitializer(
      "__global__ void k(const int *in) {"
      "  int v = __shfl_sync(0xffffffff, in[threadIdx.x], 0); }",
      "v");
  EXPECT_TRUE(Kind == LaneValue::Uniform || Kind == LaneValue::WarpUniform);
}

} // namespace
} // namespace warpfix::test
