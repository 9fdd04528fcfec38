package dev.aerun.stage;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * App Engine's instance classes and what they become in a container: the memory limit (App Engine's
 * own figure for the class) and whole CPUs (Cloud Run allows fractional CPUs only with a
 * concurrency of one, so the class's clock is rounded up to a CPU count).
 */
enum InstanceClass {
  F1(384, "1"),
  F2(768, "1"),
  F4(1536, "2"),
  F4_1G(3072, "2"),
  B1(384, "1"),
  B2(768, "1"),
  B4(1536, "2"),
  B4_1G(3072, "2"),
  B8(3072, "4");

  final int memoryMb;
  final String cpu;

  InstanceClass(int memoryMb, String cpu) {
    this.memoryMb = memoryMb;
    this.cpu = cpu;
  }

  static InstanceClass parse(String value) throws StageException {
    try {
      return valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new StageException(
          "<instance-class>"
              + value
              + "</instance-class> has no container equivalent; expected one of "
              + Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(", ")));
    }
  }

  /** The memory as a Kubernetes quantity. */
  String memory() {
    return memoryMb + "Mi";
  }
}
