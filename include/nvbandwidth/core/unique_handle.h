// One move-only owner for every driver handle: a value and the function that releases it.
#pragma once

#include <utility>

namespace nvbw {

// Owns `Handle` and calls `Release{}(handle)` (a function object that may carry state, such as
// the context to release in) exactly once. Release must not throw: destructors never fail
// loudly, since they also run while an error is being reported.
template <typename Handle, typename Release> class UniqueHandle {
 public:
  UniqueHandle() = default;
  UniqueHandle(Handle handle, Release release)
      : handle_(handle), release_(std::move(release)), owned_(true) {}
  UniqueHandle(UniqueHandle&& other) noexcept { *this = std::move(other); }
  UniqueHandle& operator=(UniqueHandle&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = other.handle_;
      release_ = std::move(other.release_);
      owned_ = std::exchange(other.owned_, false);
    }
    return *this;
  }
  UniqueHandle(const UniqueHandle&) = delete;
  UniqueHandle& operator=(const UniqueHandle&) = delete;
  ~UniqueHandle() { reset(); }

  void reset() noexcept {
    if (owned_) {
      owned_ = false;
      release_(handle_);
    }
  }
  Handle get() const { return handle_; }
  const Release& releaser() const { return release_; }

 private:
  Handle handle_{};
  Release release_{};
  bool owned_ = false;
};

}  // namespace nvbw
