#include "cpu/thread_pool.h"

#include <chrono>

#if defined(__linux__)
#include <pthread.h>
#include <time.h>
#endif
#if defined(__unix__) || defined(__APPLE__)
#include <sys/resource.h>
#endif

#include "core/error.h"

namespace cloth {
namespace {

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

// How long a member spins before it sleeps.
constexpr auto kSpinTime = std::chrono::microseconds(40);

}  // namespace

SpinBarrier::SpinBarrier(int count)
    : count_(count), spin_(count <= static_cast<int>(std::thread::hardware_concurrency())) {}

void SpinBarrier::reset(int count) {
    count_ = count;
    arrived_.store(0, std::memory_order_relaxed);
}

void SpinBarrier::wait() {
    const std::uint32_t gen = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == count_) {
        arrived_.store(0, std::memory_order_relaxed);
        // Sequentially consistent with the sleepers' count: either a sleeper's increment comes
        // first (and is seen here, so it is woken) or this increment does (and its wait sees the
        // new generation and returns at once).
        generation_.fetch_add(1, std::memory_order_seq_cst);
        if (sleepers_.load(std::memory_order_seq_cst) > 0) generation_.notify_all();
        return;
    }
    waits_.fetch_add(1, std::memory_order_relaxed);
    if (spin_) {
        const auto until = std::chrono::steady_clock::now() + kSpinTime;
        for (int spins = 1;; ++spins) {
            if (generation_.load(std::memory_order_acquire) != gen) return;
            cpuRelax();
            if (spins % 64 == 0 && std::chrono::steady_clock::now() > until) break;
        }
    }
    sleeps_.fetch_add(1, std::memory_order_relaxed);
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    while (generation_.load(std::memory_order_seq_cst) == gen) generation_.wait(gen);
    sleepers_.fetch_sub(1, std::memory_order_relaxed);
}

ThreadPool::ThreadPool(int threads) : size_(threads), barrier_(threads) {
    CLOTH_ASSERT(threads >= 1);
    for (int i = 1; i < threads; ++i) workers_.emplace_back([this, i] { workerLoop(i); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
}

void ThreadPool::run(const std::function<void(int, int)>& fn, int members) {
    if (members <= 0) members = size_;
    CLOTH_ASSERT(members <= size_);
    active_ = members;
    if (members == 1) {
        fn(0, 1);
        return;
    }
    barrier_.reset(members);
    {
        std::lock_guard lock(mutex_);
        job_ = &fn;
        jobMembers_ = members;
        ++jobId_;
        pending_ = members - 1;
    }
    wake_.notify_all();
    fn(0, members);
    std::unique_lock lock(mutex_);
    done_.wait(lock, [this] { return pending_ == 0; });
    job_ = nullptr;
}

void ThreadPool::workerLoop(int member) {
    std::uint64_t seen = 0;
    for (;;) {
        const std::function<void(int, int)>* job;
        int members;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stop_ || jobId_ != seen; });
            if (stop_) return;
            seen = jobId_;
            job = job_;
            members = jobMembers_;
        }
        if (member >= members) continue;  // not in this run
        (*job)(member, members);
        {
            std::lock_guard lock(mutex_);
            if (--pending_ == 0) done_.notify_one();
        }
    }
}

double ThreadPool::teamCpuSeconds() const {
#if defined(__linux__)
    const auto seconds = [](clockid_t id) {
        timespec t{};
        return clock_gettime(id, &t) == 0 ? double(t.tv_sec) + 1e-9 * double(t.tv_nsec) : 0.0;
    };
    double s = seconds(CLOCK_THREAD_CPUTIME_ID);
    for (const std::thread& w : workers_) {
        clockid_t id;
        if (pthread_getcpuclockid(const_cast<std::thread&>(w).native_handle(), &id) == 0)
            s += seconds(id);
    }
    return s;
#elif defined(__unix__) || defined(__APPLE__)
    rusage u{};
    if (getrusage(RUSAGE_SELF, &u) != 0) return 0.0;
    const auto s = [](const timeval& t) { return double(t.tv_sec) + 1e-6 * double(t.tv_usec); };
    return s(u.ru_utime) + s(u.ru_stime);
#else
    return 0.0;
#endif
}

void ThreadPool::split(std::uint32_t n, int member, int size, std::uint32_t& begin,
                       std::uint32_t& end) {
    const std::uint64_t m = static_cast<std::uint64_t>(member);
    const std::uint64_t s = static_cast<std::uint64_t>(size);
    begin = static_cast<std::uint32_t>(n * m / s);
    end = static_cast<std::uint32_t>(n * (m + 1) / s);
}

}  // namespace cloth
