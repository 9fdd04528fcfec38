package dev.aerun.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;

/**
 * Summarises a JFR recording of a server under load into the top frames a person reads first: where
 * the heap is allocated ({@code jdk.ObjectAllocationSample}, weighted by bytes) and where the CPU
 * goes ({@code jdk.ExecutionSample}), each by the frame that allocates or runs, by the first frame
 * outside the JDK, by library, and by the runtime's own methods on the stack.
 */
final class JfrSummary {
  private JfrSummary() {}

  /** The summary of {@code recording}: the {@code top} entries of every table. */
  static String summarise(Path recording, int top) throws IOException {
    Tally allocTop = new Tally();
    Tally allocCaller = new Tally();
    Tally allocLibrary = new Tally();
    Tally allocRuntime = new Tally();
    Tally cpuTop = new Tally();
    Tally cpuCaller = new Tally();
    Tally cpuLibrary = new Tally();
    Tally cpuRuntime = new Tally();
    for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
      String type = event.getEventType().getName();
      boolean alloc = type.equals("jdk.ObjectAllocationSample");
      boolean cpu = type.equals("jdk.ExecutionSample");
      if ((!alloc && !cpu) || event.getStackTrace() == null) {
        continue;
      }
      double weight = alloc ? event.getLong("weight") : 1;
      List<RecordedFrame> frames = event.getStackTrace().getFrames();
      if (frames.isEmpty()) {
        continue;
      }
      (alloc ? allocTop : cpuTop).add(name(frames.get(0)), weight);
      String caller = null;
      for (RecordedFrame frame : frames) {
        if (!isJdk(frame)) {
          caller = name(frame);
          break;
        }
      }
      (alloc ? allocCaller : cpuCaller).add(caller == null ? "(JDK only)" : caller, weight);
      (alloc ? allocLibrary : cpuLibrary).add(library(frames), weight);
      Set<String> seen = new HashSet<>();
      for (RecordedFrame frame : frames) {
        String name = name(frame);
        if (name.startsWith("dev.aerun.")
            && !name.startsWith("dev.aerun.bench.")
            && seen.add(name)) {
          (alloc ? allocRuntime : cpuRuntime).add(name, weight);
        }
      }
    }
    StringBuilder text = new StringBuilder();
    text.append("JFR summary of ").append(recording.getFileName()).append("\n\n");
    text.append("Allocation (jdk.ObjectAllocationSample, weighted by bytes; total sampled weight ")
        .append(Report.bytes(allocTop.total))
        .append(")\n");
    section(text, "by allocating frame", allocTop, top, true);
    section(text, "by first frame outside the JDK", allocCaller, top, true);
    section(
        text, "by the library the work is for (innermost non-JDK frame)", allocLibrary, top, true);
    section(
        text,
        "runtime (dev.aerun) methods on the stack, inclusive",
        allocRuntime,
        top,
        true,
        allocTop.total);
    text.append("\nCPU (jdk.ExecutionSample, ").append((long) cpuTop.total).append(" samples)\n");
    section(text, "by running frame", cpuTop, top, false);
    section(text, "by first frame outside the JDK", cpuCaller, top, false);
    section(text, "by library (innermost non-JDK frame)", cpuLibrary, top, false);
    section(
        text,
        "runtime (dev.aerun) methods on the stack, inclusive",
        cpuRuntime,
        top,
        false,
        cpuTop.total);
    return text.toString();
  }

  private static void section(
      StringBuilder text, String title, Tally tally, int top, boolean bytes) {
    section(text, title, tally, top, bytes, tally.total);
  }

  /** The top entries of {@code tally}, each as a share of {@code total}. */
  private static void section(
      StringBuilder text, String title, Tally tally, int top, boolean bytes, double total) {
    text.append("\n  ").append(title).append(":\n");
    tally.counts.entrySet().stream()
        .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
        .limit(top)
        .forEach(
            e ->
                text.append(
                    String.format(
                        Locale.ROOT,
                        "    %6.2f%%  %12s  %s%n",
                        total == 0 ? 0 : 100 * e.getValue() / total,
                        bytes
                            ? Report.bytes(e.getValue())
                            : String.valueOf(e.getValue().longValue()),
                        e.getKey())));
  }

  private static String name(RecordedFrame frame) {
    RecordedMethod method = frame.getMethod();
    if (method == null) {
      return "(unknown)";
    }
    return method.getType().getName() + "." + method.getName();
  }

  private static boolean isJdk(RecordedFrame frame) {
    String name = name(frame);
    return name.startsWith("java.")
        || name.startsWith("jdk.")
        || name.startsWith("sun.")
        || name.startsWith("javax.")
        || name.startsWith("com.sun.");
  }

  /** The library of the innermost frame that is not the JDK's. */
  private static String library(List<RecordedFrame> frames) {
    for (RecordedFrame frame : frames) {
      if (isJdk(frame)) {
        continue;
      }
      String name = name(frame);
      String[][] libraries = {
        {"dev.aerun.bench.", "benchmark app"},
        {"dev.aerun.", "aerun runtime"},
        {"org.eclipse.jetty.", "Jetty"},
        {"io.grpc.", "gRPC"},
        {"com.google.protobuf.", "protobuf"},
        {"com.google.cloud.", "Cloud Logging library"},
        {"com.google.", "other Google libraries"},
      };
      for (String[] library : libraries) {
        if (name.startsWith(library[0])) {
          return library[1];
        }
      }
      return "other: " + name.substring(0, Math.max(0, name.lastIndexOf('.')));
    }
    return "JDK only";
  }

  private static final class Tally {
    final Map<String, Double> counts = new HashMap<>();
    double total;

    void add(String key, double weight) {
      counts.merge(key, weight, Double::sum);
      total += weight;
    }
  }
}
