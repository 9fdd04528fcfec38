package dev.aerun.console;

import java.util.ArrayList;
import java.util.List;

/**
 * Stands in for the API host in the message tests: records each call and its request, and answers
 * with the responses queued (built with Google's own classes), empty when none is left.
 */
final class RecordingHost implements HostCalls {
  final List<String> calls = new ArrayList<>();
  final List<byte[]> requests = new ArrayList<>();
  final List<byte[]> answers = new ArrayList<>();

  @Override
  public byte[] callBlocking(String service, String method, byte[] request) {
    calls.add(service + "." + method);
    requests.add(request);
    return answers.isEmpty() ? new byte[0] : answers.remove(0);
  }
}
