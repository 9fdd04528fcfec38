package dev.aerun.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;

/**
 * Summarises a JFR recording into the top frames a person reads first: where the heap is allocated
 * ({@code jdk.ObjectAllocationSample}, weighted by bytes) and where the CPU goes ({@code
 * jdk.ExecutionSample}), each by the frame that allocates or runs, by the first frame outside the
 * JDK, by library, and by the runtime's own methods on the stack (inclusive).
 */
final class JfrSummary {
  private static final List<String> JDK = List.of("java.", "jdk.", "sun.", "javax.", "com.sun.");
  private static final String[][] LIBRARIES = {
    {"dev.aerun.bench.", "benchmark app"},
    {"dev.aerun.", "aerun runtime"},
    {"org.eclipse.jetty.", "Jetty"},
    {"io.grpc.", "gRPC"},
    {"com.google.protobuf.", "protobuf"},
    {"com.google.cloud.", "Cloud Logging library"},
    {"com.google.", "other Google libraries"},
  };
  private static final List<String> TABLES =
      List.of(
          "by %s frame",
          "by first frame outside the JDK",
          "by the library the work is for (innermost non-JDK frame)",
          "runtime (dev.aerun) methods on the stack, inclusive");

  private JfrSummary() {}

  /** A weight per key, and the total of what was added. */
  private static final class Tally {
    final Map<String, Double> counts = new HashMap<>();
    double total;

    void add(String key, double weight) {
      counts.merge(key, weight, Double::sum);
      total += weight;
    }
  }

  /** The summary of {@code recording}: the {@code top} entries of every table. */
  static String summarise(Path recording, int top) throws IOException {
    // Allocation's tables, then the CPU's, in the order of TABLES.
    Map<String, Tally> tallies = new LinkedHashMap<>();
    for (String kind : List.of("alloc", "cpu")) {
      for (int t = 0; t < TABLES.size(); t++) {
        tallies.put(kind + t, new Tally());
      }
    }
    for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
      String type = event.getEventType().getName();
      boolean alloc = type.equals("jdk.ObjectAllocationSample");
      if ((!alloc && !type.equals("jdk.ExecutionSample")) || event.getStackTrace() == null) {
        continue;
      }
      List<RecordedFrame> frames = event.getStackTrace().getFrames();
      if (frames.isEmpty()) {
        continue;
      }
      String kind = alloc ? "alloc" : "cpu";
      double weight = alloc ? event.getLong("weight") : 1;
      tallies.get(kind + 0).add(name(frames.get(0)), weight);
      String caller =
          frames.stream().map(JfrSummary::name).filter(n -> !isJdk(n)).findFirst().orElse(null);
      tallies.get(kind + 1).add(caller == null ? "(JDK only)" : caller, weight);
      tallies.get(kind + 2).add(library(caller), weight);
      Set<String> seen = new HashSet<>();
      for (RecordedFrame frame : frames) {
        String name = name(frame);
        if (name.startsWith("dev.aerun.")
            && !name.startsWith("dev.aerun.bench.")
            && seen.add(name)) {
          tallies.get(kind + 3).add(name, weight);
        }
      }
    }
    StringBuilder text = new StringBuilder("JFR summary of " + recording.getFileName() + "\n\n");
    double allocated = tallies.get("alloc0").total;
    double samples = tallies.get("cpu0").total;
    text.append("Allocation (jdk.ObjectAllocationSample, weighted by bytes; total sampled weight ")
        .append(Report.bytes(allocated))
        .append(")\n");
    for (int t = 0; t < TABLES.size(); t++) {
      section(
          text,
          TABLES.get(t).formatted("allocating"),
          tallies.get("alloc" + t),
          top,
          true,
          allocated);
    }
    text.append("\nCPU (jdk.ExecutionSample, ").append((long) samples).append(" samples)\n");
    for (int t = 0; t < TABLES.size(); t++) {
      String title =
          TABLES.get(t).formatted("running").replace("the library the work is for", "library");
      section(text, title, tallies.get("cpu" + t), top, false, samples);
    }
    return text.toString();
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
                    Report.fmt(
                        "    %6.2f%%  %12s  %s%n",
                        total == 0 ? 0 : 100 * e.getValue() / total,
                        bytes
                            ? Report.bytes(e.getValue())
                            : String.valueOf(e.getValue().longValue()),
                        e.getKey())));
  }

  private static String name(RecordedFrame frame) {
    RecordedMethod method = frame.getMethod();
    return method == null ? "(unknown)" : method.getType().getName() + "." + method.getName();
  }

  private static boolean isJdk(String name) {
    return JDK.stream().anyMatch(name::startsWith);
  }

  /** The library of a frame outside the JDK ({@code null}: none). */
  private static String library(String name) {
    if (name == null) {
      return "JDK only";
    }
    for (String[] library : LIBRARIES) {
      if (name.startsWith(library[0])) {
        return library[1];
      }
    }
    return "other: " + name.substring(0, Math.max(0, name.lastIndexOf('.')));
  }
}
