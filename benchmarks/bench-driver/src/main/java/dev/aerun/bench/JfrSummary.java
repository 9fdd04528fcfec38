package dev.aerun.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
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

  /** The summary of {@code recording}: the {@code top} entries of every table. */
  static String summarise(Path recording, int top) throws IOException {
    // Per kind (allocation, CPU), a weight per key for each of TABLES.
    List<List<Map<String, Double>>> tallies = new ArrayList<>();
    for (int kind = 0; kind < 2; kind++) {
      tallies.add(Stream.<Map<String, Double>>generate(HashMap::new).limit(TABLES.size()).toList());
    }
    for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
      String type = event.getEventType().getName();
      int kind = List.of("jdk.ObjectAllocationSample", "jdk.ExecutionSample").indexOf(type);
      if (kind < 0 || event.getStackTrace() == null) {
        continue;
      }
      List<String> frames =
          event.getStackTrace().getFrames().stream().map(JfrSummary::name).toList();
      if (frames.isEmpty()) {
        continue;
      }
      double weight = kind == 0 ? event.getLong("weight") : 1;
      String caller =
          frames.stream()
              .filter(n -> JDK.stream().noneMatch(n::startsWith))
              .findFirst()
              .orElse(null);
      List<Map<String, Double>> tables = tallies.get(kind);
      tables.get(0).merge(frames.get(0), weight, Double::sum);
      tables.get(1).merge(caller == null ? "(JDK only)" : caller, weight, Double::sum);
      tables.get(2).merge(library(caller), weight, Double::sum);
      frames.stream()
          .filter(n -> n.startsWith("dev.aerun.") && !n.startsWith("dev.aerun.bench."))
          .distinct()
          .forEach(n -> tables.get(3).merge(n, weight, Double::sum));
    }
    StringBuilder text = new StringBuilder("JFR summary of " + recording.getFileName() + "\n\n");
    for (int kind = 0; kind < 2; kind++) {
      boolean alloc = kind == 0;
      double total = tallies.get(kind).get(0).values().stream().mapToDouble(d -> d).sum();
      text.append(
          alloc
              ? "Allocation (jdk.ObjectAllocationSample, weighted by bytes; total sampled weight "
                  + Report.bytes(total)
                  + ")\n"
              : "\nCPU (jdk.ExecutionSample, " + (long) total + " samples)\n");
      for (int t = 0; t < TABLES.size(); t++) {
        String title = TABLES.get(t).formatted(alloc ? "allocating" : "running");
        text.append("\n  ")
            .append(alloc ? title : title.replace("the library the work is for", "library"))
            .append(":\n");
        tallies.get(kind).get(t).entrySet().stream()
            .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
            .limit(top)
            .forEach(
                e ->
                    text.append(
                        Report.fmt(
                            "    %6.2f%%  %12s  %s%n",
                            total == 0 ? 0 : 100 * e.getValue() / total,
                            alloc ? Report.bytes(e.getValue()) : "" + e.getValue().longValue(),
                            e.getKey())));
      }
    }
    return text.toString();
  }

  private static String name(RecordedFrame frame) {
    RecordedMethod method = frame.getMethod();
    return method == null ? "(unknown)" : method.getType().getName() + "." + method.getName();
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
