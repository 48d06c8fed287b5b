// Included by the skipped branch and by the branch this parse takes.
#pragma once
__device__ int sharedVote(int p) { return __ballot(p); }
