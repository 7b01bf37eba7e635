#include "storage/chunk_directory.h"

#include "storage/epoch_manager.h"
#include "storage/error.h"

namespace floe {

ChunkDirectory::~ChunkDirectory() {
  const size_t chunks = size_.load(std::memory_order_relaxed);
  for (size_t c = 0; c < chunks; ++c) delete &(*this)[c];
  for (auto& segment : segments_) delete[] segment.load(std::memory_order_relaxed);
}

void ChunkDirectory::push_back(std::unique_ptr<TableChunk> chunk) {
  const size_t index = size_.load(std::memory_order_relaxed);
  if (index == kSegments * kSegmentChunks) throw Error("table is full: too many chunks");
  std::atomic<std::atomic<TableChunk*>*>& segment = segments_[index / kSegmentChunks];
  std::atomic<TableChunk*>* slots = segment.load(std::memory_order_relaxed);
  if (!slots) {
    slots = new std::atomic<TableChunk*>[kSegmentChunks]();
    segment.store(slots, std::memory_order_release);
  }
  slots[index % kSegmentChunks].store(chunk.release(), std::memory_order_release);
  size_.store(index + 1, std::memory_order_release);
}

void ChunkDirectory::pop_back() {
  const size_t index = size_.load(std::memory_order_relaxed) - 1;
  size_.store(index, std::memory_order_release);
  std::atomic<TableChunk*>& slot =
      segments_[index / kSegmentChunks].load(std::memory_order_relaxed)[index % kSegmentChunks];
  epochs().retire_object(
      std::unique_ptr<TableChunk>(slot.exchange(nullptr, std::memory_order_relaxed)));
}

void ChunkDirectory::clear() {
  while (!empty()) pop_back();
}

void ChunkDirectory::swap(ChunkDirectory& other) {
  for (size_t s = 0; s < kSegments; ++s)
    segments_[s].store(other.segments_[s].exchange(segments_[s].load(std::memory_order_relaxed),
                                                   std::memory_order_relaxed),
                       std::memory_order_relaxed);
  size_.store(other.size_.exchange(size_.load(std::memory_order_relaxed), std::memory_order_relaxed),
              std::memory_order_relaxed);
}

}  // namespace floe
