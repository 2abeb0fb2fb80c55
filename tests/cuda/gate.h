/*
 * gate.h — deterministic stream tests: a gate is a host function queued on
 * a stream that blocks until the host opens it, so the work queued after it
 * is certainly pending (cudaErrorNotReady, not yet visible) however fast
 * the device is, and ordering checks cannot pass by luck of timing.
 *
 * CUDA allows a host function to block (it must not call CUDA); the
 * stream's later work waits for it to return.  gate_open_later opens a gate
 * from another thread, for checks where the host itself blocks (a
 * synchronous cudaMemcpy); wait_done polls an event with a time limit, so
 * a metalcuda ordering bug fails a check instead of hanging the program.
 *
 * Launch every kernel once before closing any gate: NVIDIA's runtime loads
 * a kernel at its first launch (lazy loading, the default), and that load
 * waits for work already queued, so a first launch behind a closed gate
 * blocks the host until the gate opens (seen on an H200) — a deadlock when
 * the same thread opens it.
 */
#ifndef TESTS_CUDA_GATE_H
#define TESTS_CUDA_GATE_H

#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <thread>

struct gate {
   std::atomic<int> open{0};
   std::atomic<int> entered{0};   /* the host function started */
};

static void CUDART_CB gate_wait(void *p)
{
   gate *g = (gate *)p;
   g->entered = 1;
   while (!g->open.load())
      std::this_thread::sleep_for(std::chrono::microseconds(200));
}

/* Queues a closed gate on s. */
static inline cudaError_t gate_close(gate *g, cudaStream_t s)
{
   g->open = 0;
   g->entered = 0;
   return cudaLaunchHostFunc(s, gate_wait, g);
}

static inline void gate_open(gate *g) { g->open = 1; }

/* Opens g after ms milliseconds, from another thread (join it). */
static inline std::thread gate_open_later(gate *g, int ms)
{
   return std::thread([g, ms] {
      std::this_thread::sleep_for(std::chrono::milliseconds(ms));
      g->open = 1;
   });
}

static inline void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

static inline double now_ms(void)
{
   return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/* Polls cudaEventQuery(e) for up to ms milliseconds: true once complete. */
static inline bool wait_done(cudaEvent_t e, int ms)
{
   double end = now_ms() + ms;
   do {
      if (cudaEventQuery(e) == cudaSuccess)
         return true;
      sleep_ms(1);
   } while (now_ms() < end);
   return false;
}

#endif
