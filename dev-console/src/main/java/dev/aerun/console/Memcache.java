package dev.aerun.console;

import dev.aerun.runtime.apis.ApiCallException;

/**
 * Memcache as the console reads and empties it: the {@code memcache} service's {@code Stats}
 * ({@code MemcacheStatsResponse {stats = 1 {hits = 1, misses = 2, byte_hits = 3, items = 4, bytes =
 * 5, oldest_item_age = 6}}}) and {@code FlushAll} calls to the API host.
 */
final class Memcache {
  private final HostCalls host;

  Memcache(HostCalls host) {
    this.host = host;
  }

  /**
   * The cache's counters.
   *
   * @param oldestItemAgeSeconds how long the least recently used item has been in the cache
   */
  record Stats(
      long hits, long misses, long byteHits, long items, long bytes, long oldestItemAgeSeconds) {}

  Stats statsBlocking() throws ApiCallException, InterruptedException {
    ProtoMessage stats =
        ProtoMessage.parse(host.callBlocking("memcache", "Stats", new byte[0])).message(1);
    return new Stats(
        stats.bits(1), stats.bits(2), stats.bits(3), stats.bits(4), stats.bits(5), stats.bits(6));
  }

  /** Empties the cache. */
  void flushBlocking() throws ApiCallException, InterruptedException {
    host.callBlocking("memcache", "FlushAll", new byte[0]);
  }
}
