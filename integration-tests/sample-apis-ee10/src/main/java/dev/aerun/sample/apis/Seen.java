package dev.aerun.sample.apis;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** What tasks saw when they ran, by task id, for the tests to read back through /api/seen. */
final class Seen {
  static final Map<String, String> TASKS = new ConcurrentHashMap<>();

  private Seen() {}
}
