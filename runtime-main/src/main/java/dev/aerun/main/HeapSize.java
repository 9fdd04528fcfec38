package dev.aerun.main;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.OperatingSystemMXBean;
import com.sun.management.VMOption;
import java.lang.management.ManagementFactory;
import java.util.Optional;

/**
 * {@code GAE_MEMORY_MB} sizes the heap.
 *
 * <p>The JVM sizes its heap from the memory it sees (a container's limit, else the machine's) times
 * {@code MaxRAMPercentage}; the platform's {@code GAE_MEMORY_MB} says how much the instance really
 * has. A JVM cannot grow or shrink its maximum heap once started, and the images' entrypoint has no
 * shell to turn the variable into a flag, so when the variable is below what the JVM sized itself
 * for, the launcher starts the serving JVM again ({@link Relaunch}) with {@code -XX:MaxRAM} set to
 * it: the heap is then the same percentage of the instance's memory, and every other ergonomic
 * choice (collector, thread counts) follows the same figure. Where the platform sets the container
 * limit from the same instance class (Cloud Run, GKE), the two agree and nothing happens. A heap or
 * {@code MaxRAM} given on the command line wins; a variable above the visible memory is ignored
 * (the container's limit is the hard one).
 */
final class HeapSize {
  static final String VARIABLE = "GAE_MEMORY_MB";

  /** Differences below this are rounding (the JVM's view of a limit), not a smaller instance. */
  private static final double TOLERANCE = 0.95;

  private HeapSize() {}

  /**
   * The JVM option to relaunch with, if {@code GAE_MEMORY_MB} asks for less memory than this JVM
   * sized its heap for.
   *
   * @param variable the value of {@code GAE_MEMORY_MB}, or null
   * @param visibleBytes the memory the JVM sees (container-aware)
   * @param heapGiven whether {@code -Xmx}, {@code -XX:MaxHeapSize} or {@code -XX:MaxRAM} was given
   * @throws StartupException if the variable is not a positive whole number of MiB
   */
  static Optional<String> relaunchOption(String variable, long visibleBytes, boolean heapGiven)
      throws StartupException {
    if (variable == null || variable.isBlank()) {
      return Optional.empty();
    }
    long megabytes;
    try {
      megabytes = Long.parseLong(variable.trim());
    } catch (NumberFormatException e) {
      megabytes = -1;
    }
    if (megabytes <= 0) {
      throw new StartupException(
          "environment variable " + VARIABLE + "=" + variable + ": expected a number of MiB");
    }
    if (heapGiven || megabytes * 1024 * 1024 >= visibleBytes * TOLERANCE) {
      return Optional.empty();
    }
    return Optional.of("-XX:MaxRAM=" + megabytes + "m");
  }

  /** {@link #relaunchOption(String, long, boolean)} for this JVM. */
  static Optional<String> relaunchOption(String variable) throws StartupException {
    if (variable == null || variable.isBlank()) {
      return Optional.empty();
    }
    var os = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);
    var hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
    boolean given =
        hotspot == null
            || fromCommandLine(hotspot.getVMOption("MaxHeapSize"))
            || fromCommandLine(hotspot.getVMOption("MaxRAM"));
    long visible = os == null ? Long.MAX_VALUE : os.getTotalMemorySize();
    return relaunchOption(variable, visible, given);
  }

  private static boolean fromCommandLine(VMOption option) {
    return option.getOrigin() == VMOption.Origin.VM_CREATION
        || option.getOrigin() == VMOption.Origin.ENVIRON_VAR
        || option.getOrigin() == VMOption.Origin.CONFIG_FILE;
  }
}
