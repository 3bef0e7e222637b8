#include "cpu/thread_pool.h"

#include "core/error.h"

namespace cloth {

SpinBarrier::SpinBarrier(int count)
    : count_(count),
      spinLimit_(count <= static_cast<int>(std::thread::hardware_concurrency()) ? 2000 : 0) {}

void SpinBarrier::wait() {
    const std::uint32_t gen = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == count_) {
        arrived_.store(0, std::memory_order_relaxed);
        generation_.fetch_add(1, std::memory_order_acq_rel);
        return;
    }
    int spins = 0;
    while (generation_.load(std::memory_order_acquire) == gen) {
        if (++spins > spinLimit_) std::this_thread::yield();
    }
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

void ThreadPool::run(const std::function<void(int, int)>& fn) {
    if (size_ == 1) {
        fn(0, 1);
        return;
    }
    {
        std::lock_guard lock(mutex_);
        job_ = &fn;
        ++jobId_;
        pending_ = size_ - 1;
    }
    wake_.notify_all();
    fn(0, size_);
    std::unique_lock lock(mutex_);
    done_.wait(lock, [this] { return pending_ == 0; });
    job_ = nullptr;
}

void ThreadPool::workerLoop(int member) {
    std::uint64_t seen = 0;
    for (;;) {
        const std::function<void(int, int)>* job;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stop_ || jobId_ != seen; });
            if (stop_) return;
            seen = jobId_;
            job = job_;
        }
        (*job)(member, size_);
        {
            std::lock_guard lock(mutex_);
            if (--pending_ == 0) done_.notify_one();
        }
    }
}

void ThreadPool::split(std::uint32_t n, int member, int size, std::uint32_t& begin,
                       std::uint32_t& end) {
    const std::uint64_t m = static_cast<std::uint64_t>(member);
    const std::uint64_t s = static_cast<std::uint64_t>(size);
    begin = static_cast<std::uint32_t>(n * m / s);
    end = static_cast<std::uint32_t>(n * (m + 1) / s);
}

}  // namespace cloth
