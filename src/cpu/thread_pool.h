// A fixed team of threads that runs one function on every member (an OpenMP-style parallel
// region) with a cheap barrier between stages. The caller is member 0.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace cloth {

// Generation-counting barrier that spins briefly, then yields. With more threads than hardware
// threads it yields at once, so the threads it waits for get the cores.
class SpinBarrier {
public:
    explicit SpinBarrier(int count);
    void wait();

private:
    const int count_;
    const int spinLimit_;
    std::atomic<int> arrived_{0};
    std::atomic<std::uint32_t> generation_{0};
};

class ThreadPool {
public:
    explicit ThreadPool(int threads);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int size() const { return size_; }

    // Runs fn(member, size) on every member and returns when all are done. Inside fn, members
    // synchronise with barrier().
    void run(const std::function<void(int, int)>& fn);
    void barrier() { barrier_.wait(); }

    // The part [begin, end) of [0, n) that `member` handles: contiguous, balanced, fixed for a
    // given (n, size).
    static void split(std::uint32_t n, int member, int size, std::uint32_t& begin,
                      std::uint32_t& end);

private:
    void workerLoop(int member);

    const int size_;
    SpinBarrier barrier_;
    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable done_;
    const std::function<void(int, int)>* job_ = nullptr;
    std::uint64_t jobId_ = 0;
    int pending_ = 0;
    bool stop_ = false;
};

}  // namespace cloth
