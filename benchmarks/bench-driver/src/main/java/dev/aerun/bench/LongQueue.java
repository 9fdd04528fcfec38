package dev.aerun.bench;

/** A FIFO of scheduled send times, without boxing. */
final class LongQueue {
  private long[] items = new long[1024];
  private int head;
  private int size;

  void add(long value) {
    if (size == items.length) {
      long[] bigger = new long[items.length * 2];
      for (int i = 0; i < size; i++) {
        bigger[i] = items[(head + i) % items.length];
      }
      items = bigger;
      head = 0;
    }
    items[(head + size) % items.length] = value;
    size++;
  }

  long poll() {
    long value = items[head];
    head = (head + 1) % items.length;
    size--;
    return value;
  }

  boolean isEmpty() {
    return size == 0;
  }

  int size() {
    return size;
  }
}
