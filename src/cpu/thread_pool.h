// A fixed team of threads that runs one function on every member (an OpenMP-style parallel
// region) with a cheap barrier between stages. The caller is member 0. A run may use fewer
// members than the team has (work too small to share): the others stay asleep, and with one
// member the barrier costs nothing.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace cloth {

// Generation-counting barrier that spins for a short while (a few tens of microseconds: the
// usual imbalance of a stage), then sleeps on the generation (a futex) until the last member
// arrives. Sleeping matters when the cores are shared: a member that yields in a loop keeps
// competing for the core that the member it waits for needs. With more members than hardware
// threads it sleeps at once.
class SpinBarrier {
public:
    explicit SpinBarrier(int count);
    // Only while no member waits (between runs).
    void reset(int count);
    void wait();
    // How many times members have waited here, and how many of those went to sleep (outwaited
    // the spin).
    std::uint64_t waits() const { return waits_.load(std::memory_order_relaxed); }
    std::uint64_t sleeps() const { return sleeps_.load(std::memory_order_relaxed); }

private:
    int count_;
    const bool spin_;
    std::atomic<int> arrived_{0};
    std::atomic<int> sleepers_{0};
    std::atomic<std::uint64_t> waits_{0}, sleeps_{0};
    alignas(64) std::atomic<std::uint32_t> generation_{0};
};

class ThreadPool {
public:
    explicit ThreadPool(int threads);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int size() const { return size_; }

    // Runs fn(member, members) on members 0 .. members - 1 (1 <= members <= size(), default
    // all) and returns when all are done. Inside fn, those members synchronise with barrier().
    void run(const std::function<void(int, int)>& fn, int members = 0);
    void barrier() {
        if (active_ > 1) barrier_.wait();
    }
    // Barrier waits so far, and those that went to sleep (SpinBarrier): on cores of its own a
    // team rarely outwaits the spin; beside other busy processes, at most barriers.
    std::uint64_t barrierWaits() const { return barrier_.waits(); }
    std::uint64_t barrierSleeps() const { return barrier_.sleeps(); }
    // CPU seconds the team's threads have run: the calling thread's (member 0, when the caller
    // is the thread that runs the team) and the workers'. Where threads have no CPU clocks
    // (non-Linux): the whole process's (getrusage).
    double teamCpuSeconds() const;

    // The part [begin, end) of [0, n) that `member` handles: contiguous, balanced, fixed for a
    // given (n, size).
    static void split(std::uint32_t n, int member, int size, std::uint32_t& begin,
                      std::uint32_t& end);

private:
    void workerLoop(int member);

    const int size_;
    int active_ = 1;  // members of the current run
    SpinBarrier barrier_;
    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable done_;
    const std::function<void(int, int)>* job_ = nullptr;
    std::uint64_t jobId_ = 0;
    int jobMembers_ = 0;
    int pending_ = 0;
    bool stop_ = false;
};

}  // namespace cloth
