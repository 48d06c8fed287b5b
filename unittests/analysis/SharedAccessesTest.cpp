// Shared-memory races between the lanes of a warp, and the ones between
// warps that no __syncwarp() can order. Calling a race between warps one
// within a warp is how a __syncwarp() "fix" of a real block-level race came
// about; these facts keep the two apart.
#include "checks/analysis/SharedAccesses.h"
#include "unittests/analysis/ParsedUnit.h"
#include "gtest/gtest.h"
#include <memory>

namespace warpfix::test {
namespace {

constexpr llvm::StringLiteral Prelude = "#define LANES threadIdx.x\n"
                                        "__device__ int sink;\n";

/// The races in the kernel `k` of Code, within a warp and across warps, in
/// every block shape that its launches allow, as the check models them. A
/// race points into the models' accesses, so the models live as long.
struct KernelRaces {
  std::unique_ptr<BlockModels> Models;
  std::vector<Race> Races;
};

KernelRaces racesOf(ParsedUnit &Unit) {
  const clang::FunctionDecl &Kernel = Unit.function("k");
  KernelRaces Result;
  Result.Models = std::make_unique<BlockModels>(Unit.context(),
                                                /*LargestBudget=*/12'000'000);
  Result.Races = Result.Models->racesIn(
      Kernel, Unit.analyses().Shapes.launchesOf(&Kernel));
  return Result;
}

bool anyAcrossWarps(const std::vector<Race> &Races) {
  return llvm::any_of(Races, [](const Race &R) { return R.AcrossWarps; });
}

TEST(SharedAccesses, NeighbourExchangeWithoutBarrierRaces) {
  ParsedUnit Unit((Prelude + "__global__ void k(int v) {"
                             "  __shared__ int s[64];"
                             "  s[threadIdx.x] = v;"
                             "  sink = s[threadIdx.x ^ 1]; }")
                      .str());
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  KernelRaces Found = racesOf(Unit);
  const std::vector<Race> &Races = Found.Races;
  ASSERT_FALSE(Races.empty());
  EXPECT_FALSE(anyAcrossWarps(Races));
  const Race &First = Races.front();
  EXPECT_TRUE(First.Write->IsWrite);
  EXPECT_NE(First.WriterThread, First.OtherThread);
  EXPECT_EQ(First.WriterThread / 32, First.OtherThread / 32);
}

// Both reads start where each lane wrote, but the wider one also covers the
// next lane's element. The search remembers which patterns of elements
// meet; the access's width is part of what it remembers.
TEST(SharedAccesses, WiderReadOfTheSameElementsReachesTheNeighbour) {
  ParsedUnit Unit((Prelude + "__global__ void k(int v) {"
                             "  __shared__ int s[65];"
                             "  s[threadIdx.x] = v;"
                             "  sink = s[threadIdx.x];"
                             "  sink = (int)*(long long *)&s[threadIdx.x]; }")
                      .str());
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  KernelRaces Found = racesOf(Unit);
  ASSERT_FALSE(Found.Races.empty());
  for (const Race &R : Found.Races) {
    EXPECT_EQ(R.Other->Bytes, 8) << "only the wide read meets another lane";
    EXPECT_NE(R.WriterThread, R.OtherThread);
  }
}

// The search visits a write's pairs statement by statement: here the
// first read of the loop meets the write only in its second iteration,
// after the other read's first. A write's witnesses still come in the
// order of the accesses they pair it with.
TEST(SharedAccesses, WitnessesComeInTheOrderOfTheAccesses) {
  ParsedUnit Unit((Prelude + "__global__ void k(int v) {"
                             "  __shared__ int s[96];"
                             "  s[threadIdx.x] = v;"
                             "  for (int i = 0; i < 2; ++i) {"
                             "    sink = s[threadIdx.x + i];"
                             "    sink = s[threadIdx.x ^ 1]; } }")
                      .str());
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  KernelRaces Found = racesOf(Unit);
  ASSERT_GE(Found.Races.size(), 2u);
  const Race &First = Found.Races[0], &Second = Found.Races[1];
  ASSERT_EQ(First.Write, Second.Write);
  EXPECT_LT(First.Other->Sequence, Second.Other->Sequence);
  EXPECT_NE(First.Other->Access, Second.Other->Access);
}

TEST(SharedAccesses, SyncwarpBetweenOrdersTheExchange) {
  ParsedUnit Unit((Prelude + "__global__ void k(int v) {"
                             "  __shared__ int s[64];"
                             "  s[threadIdx.x] = v;"
                             "  __syncwarp();"
                             "  sink = s[threadIdx.x ^ 1]; }")
                      .str());
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  EXPECT_TRUE(racesOf(Unit).Races.empty());
}

TEST(SharedAccesses, OwnElementOnlyDoesNotRace) {
  ParsedUnit Unit((Prelude + "__global__ void k(int v) {"
                             "  __shared__ int s[64];"
                             "  s[threadIdx.x] = v;"
                             "  s[threadIdx.x] += 1;"
                             "  sink = s[threadIdx.x]; }")
                      .str());
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  EXPECT_TRUE(racesOf(Unit).Races.empty());
}

// Lanes 16 to 31 skip the barrier: their exchange stays unordered.
TEST(SharedAccesses, BarrierThatSomeLanesSkipLeavesThemRacing) {
  ParsedUnit Unit((Prelude + "__global__ void k(int v) {"
                             "  __shared__ int s[64];"
                             "  s[threadIdx.x] = v;"
                             "  if (threadIdx.x % 32 < 16) __syncwarp(0xffff);"
                             "  sink = s[threadIdx.x ^ 1]; }")
                      .str());
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  KernelRaces Found = racesOf(Unit);
  const std::vector<Race> &Races = Found.Races;
  ASSERT_FALSE(Races.empty());
  for (const Race &R : Races) {
    EXPECT_GE(R.WriterThread % 32, 16) << "lanes 0-15 are ordered";
    EXPECT_GE(R.OtherThread % 32, 16) << "lanes 0-15 are ordered";
  }
}

// Thread t reads what thread t+33 wrote: lanes of one warp meet, and so do
// threads of two warps through the same pair of accesses. The race is
// flagged as one between warps, which no __syncwarp() orders.
TEST(SharedAccesses, RaceThatWarpsShareTooIsABlockLevelRace) {
  ParsedUnit Unit((Prelude + "__global__ void k(int v) {"
                             "  __shared__ int s[64];"
                             "  s[threadIdx.x] = v;"
                             "  sink = s[(threadIdx.x + 33) % 64]; }"
                             "void host(int v) { k<<<1, 64>>>(v); }")
                      .str());
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  KernelRaces Found = racesOf(Unit);
  const std::vector<Race> &Races = Found.Races;
  ASSERT_FALSE(Races.empty());
  EXPECT_TRUE(anyAcrossWarps(Races));
}

// Only threads of different warps meet: no lane of a warp races another
// lane of its own, so there is no warp-level race to order.
TEST(SharedAccesses, ExchangeOnlyBetweenWarpsIsNoWarpRace) {
  ParsedUnit Unit((Prelude + "__global__ void k(int v) {"
                             "  __shared__ int s[64];"
                             "  s[threadIdx.x] = v;"
                             "  sink = s[(threadIdx.x + 32) % 64]; }"
                             "void host(int v) { k<<<1, 64>>>(v); }")
                      .str());
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  EXPECT_TRUE(racesOf(Unit).Races.empty());
}

TEST(SharedAccesses, BlockBarrierOrdersEveryWarp) {
  ParsedUnit Unit((Prelude + "__global__ void k(int v) {"
                             "  __shared__ int s[64];"
                             "  s[threadIdx.x] = v;"
                             "  __syncthreads();"
                             "  sink = s[(threadIdx.x + 32) % 64]; }"
                             "void host(int v) { k<<<1, 64>>>(v); }")
                      .str());
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  KernelRaces Found = racesOf(Unit);
  EXPECT_TRUE(Found.Races.empty());
  EXPECT_TRUE(Found.Models->racesAcrossWarps().empty());
}

// The exchange that only threads of different warps make is a race between
// warps, and a __syncwarp() between the accesses does not order it.
TEST(SharedAccesses, ExchangeBetweenWarpsIsARaceAcrossWarps) {
  ParsedUnit Unit((Prelude + "__global__ void k(int v) {"
                             "  __shared__ int s[64];"
                             "  s[threadIdx.x] = v;"
                             "  __syncwarp();"
                             "  sink = s[(threadIdx.x + 32) % 64]; }"
                             "void host(int v) { k<<<1, 64>>>(v); }")
                      .str());
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  KernelRaces Found = racesOf(Unit);
  EXPECT_TRUE(Found.Races.empty());
  std::vector<Race> Across = Found.Models->racesAcrossWarps();
  ASSERT_EQ(Across.size(), 1u);
  const Race &R = Across.front();
  EXPECT_TRUE(R.Write->IsWrite);
  EXPECT_FALSE(R.Other->IsWrite);
  EXPECT_NE(R.WriterThread / 32, R.OtherThread / 32);
  EXPECT_EQ(R.Element, R.WriterThread * 4);
  EXPECT_TRUE(R.FromLaunch);
}

// A grid's sync() holds every thread of the block too; a tile's does not.
TEST(SharedAccesses, GridSyncOrdersWarpsAndTileSyncDoesNot) {
  for (auto [Barrier, Orders] :
       {std::pair{"cg::this_grid().sync();", true},
        std::pair{"cg::tiled_partition<32>(cg::this_thread_block()).sync();",
                  false}}) {
    ParsedUnit Unit((Prelude +
                     "#include <cooperative_groups.h>\n"
                     "namespace cg = cooperative_groups;\n"
                     "__global__ void k(int v) {"
                     "  __shared__ int s[64];"
                     "  s[threadIdx.x] = v; " +
                     Barrier +
                     "  sink = s[(threadIdx.x + 32) % 64]; }"
                     "void host(int v) { k<<<1, 64>>>(v); }")
                        .str());
    ASSERT_TRUE(Unit.parsed()) << Unit.errors();
    KernelRaces Found = racesOf(Unit);
    EXPECT_EQ(Found.Models->racesAcrossWarps().empty(), Orders) << Barrier;
  }
}

// With no launch in sight the largest block is modelled; where its later
// threads index outside the array's rows, the kernel was written for a
// smaller block, and their meetings are no race.
TEST(SharedAccesses, ThreadsOutsideTheArraysRowsShowNoRaceAcrossWarps) {
  ParsedUnit Unit((Prelude + "__global__ void k(const int *in, int n) {"
                             "  __shared__ int buf[2][128];"
                             "  int t = threadIdx.x;"
                             "  for (int i = 0; i < n; ++i) {"
                             "    buf[i % 2][t] = in[i * 128 + t];"
                             "    __syncthreads();"
                             "    sink = buf[i % 2][127 - t]; } }")
                      .str());
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  KernelRaces Found = racesOf(Unit);
  EXPECT_TRUE(Found.Models->racesAcrossWarps().empty());
}

// The tail of the classic reduction: the first warp reads what its own
// lanes wrote a step before, with nothing ordering the steps.
TEST(SharedAccesses, UnsynchronisedWarpReductionRaces) {
  ParsedUnit Unit((Prelude + "__global__ void k(const int *in) {"
                             "  __shared__ int s[64];"
                             "  unsigned t = threadIdx.x;"
                             "  s[t] = in[t];"
                             "  __syncthreads();"
                             "  if (t < 32) {"
                             "    s[t] += s[t + 32];"
                             "    s[t] += s[t + 16];"
                             "    s[t] += s[t + 8]; }"
                             "  if (t == 0) sink = s[0]; }"
                             "void host(const int *in) { k<<<1, 64>>>(in); }")
                      .str());
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  KernelRaces Found = racesOf(Unit);
  const std::vector<Race> &Races = Found.Races;
  ASSERT_FALSE(Races.empty());
  EXPECT_FALSE(anyAcrossWarps(Races));
}

// With rows of 16 threads, threadIdx.y picks the warp's half: the element
// of the row above is another lane's of the same warp.
TEST(SharedAccesses, RowsOfATwoDimensionalBlockShareAWarp) {
  ParsedUnit Unit((Prelude + "static __global__ void k(int v) {"
                             "  __shared__ int s[4][16];"
                             "  s[threadIdx.y][threadIdx.x] = v;"
                             "  sink = s[threadIdx.y ^ 1][threadIdx.x]; }"
                             "void host(int v) { k<<<1, dim3(16, 4)>>>(v); }")
                      .str());
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  KernelRaces Found = racesOf(Unit);
  const std::vector<Race> &Races = Found.Races;
  ASSERT_FALSE(Races.empty());
  EXPECT_FALSE(anyAcrossWarps(Races));
}

} // namespace
} // namespace warpfix::test
