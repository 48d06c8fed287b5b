// What warpfix does since: no fix. A constructor that is not trivial counts
// as a call with side effects, so the condition is not evaluated again.
//
// Red team, computed-once ballots: a branch condition whose only effect is
// hidden in a constructor. `Ticket(i).number` builds a temporary whose
// constructor takes a ticket from a per-thread counter (an atomicAdd through
// a __device__ pointer). The condition itself mentions only the register i
// and a field reached with '.', so warpfix takes it for one that "reads only
// registers" and keeps the plain form: it evaluates the condition once in the
// hoisted __ballot_sync and once more in the `if`. Each evaluation takes a
// ticket, so the branch sees the next ticket, of the other parity: the lanes
// the ballot names skip the arm and the others enter it, calling
// __shfl_xor_sync with a mask that does not name them (undefined: a hang, or
// garbage). The if/else kernel evaluates it three times (a ballot for each
// arm, and the branch). warpfix's own rule says a condition with side effects
// is never evaluated a second time (isHoistable looks at CallExpr only; a
// CXXConstructExpr calls the constructor all the same); computed once into a
// variable, as for a condition that reads memory, the rewrite would be right.
//
// What the legacy code computed: each thread sets its counter to its pair's
// bit b (pairBits[i / 2]), then evaluates the condition once: ticket b, so
// the pairs with b = 0 take the branch (both lanes of a pair together, so
// __shfl_xor(v, 1) reads a lane in the same arm), and the counter ends at
// b + 1. ticketThen: v + partner's v where b = 0. ticketElse: v + partner's
// v where b = 0, v + 2 * partner's v where b = 1. Threads past n take part
// with v = 0; out holds the n in-range values, tickets every thread's counter.
//
// Shapes: even block sizes (a lane's pair partner must exist).
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

__device__ int *g_tickets;

struct Ticket {
  int number;
  __device__ explicit Ticket(int slot) : number(atomicAdd(&g_tickets[slot], 1)) {}
};

__global__ void ticketThen(const int *in, const int *pairBits, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  g_tickets[i] = pairBits[i / 2];
  if (Ticket(i).number % 2 == 0) {
    v += __shfl_xor(v, 1);
  }
  if (i < n)
    out[i] = v;
}

__global__ void ticketElse(const int *in, const int *pairBits, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  g_tickets[i] = pairBits[i / 2];
  if (Ticket(i).number % 2 == 0) {
    v += __shfl_xor(v, 1);
  } else {
    v += 2 * __shfl_xor(v, 1);
  }
  if (i < n)
    out[i] = v;
}

struct Expected {
  std::vector<int> then, both, tickets;
};

static Expected reference(const std::vector<int> &in, const std::vector<int> &pairBits,
                          const harness::Shape &s) {
  int threads = s.blockSize * s.numBlocks;
  Expected e{std::vector<int>(s.n), std::vector<int>(s.n), std::vector<int>(threads)};
  auto at = [&](int i) { return i < s.n ? in[i] : 0; };
  for (int i = 0; i < threads; ++i) {
    int b = pairBits[i / 2];
    e.tickets[i] = b + 1;
    if (i >= s.n)
      continue;
    int partner = at(i ^ 1);
    e.then[i] = b == 0 ? at(i) + partner : at(i);
    e.both[i] = b == 0 ? at(i) + partner : at(i) + 2 * partner;
  }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize % 2 == 0, "each lane's pair partner must exist");
  harness::Rng rng(s.seed);
  int threads = s.blockSize * s.numBlocks;
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  std::vector<int> pairBits = harness::randomInts(rng, threads / 2, 0, 1);
  Expected want = reference(in, pairBits, s);
  harness::DeviceArray<int> dIn(in), dBits(pairBits), dThen(s.n), dBoth(s.n),
      dThenTickets(threads), dBothTickets(threads);
  int *thenTickets = dThenTickets.get(), *bothTickets = dBothTickets.get();
  return harness::run(s,
                      {harness::expect("ticketThen", dThen, want.then),
                       harness::expect("ticketThen.tickets", dThenTickets, want.tickets),
                       harness::expect("ticketElse", dBoth, want.both),
                       harness::expect("ticketElse.tickets", dBothTickets, want.tickets)},
                      [&] {
                        CHECK_CUDA(cudaMemcpyToSymbol(g_tickets, &thenTickets, sizeof(int *)));
                        ticketThen<<<s.numBlocks, s.blockSize>>>(dIn.get(), dBits.get(),
                                                                 dThen.get(), s.n);
                        CHECK_CUDA(cudaMemcpyToSymbol(g_tickets, &bothTickets, sizeof(int *)));
                        ticketElse<<<s.numBlocks, s.blockSize>>>(dIn.get(), dBits.get(),
                                                                 dBoth.get(), s.n);
                      });
}
