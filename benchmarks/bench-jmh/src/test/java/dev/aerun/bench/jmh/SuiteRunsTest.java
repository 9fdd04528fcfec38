package dev.aerun.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Collection;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Every benchmark of the suite runs once, briefly, in this JVM: the suite compiles, its generated
 * code is there and no benchmark throws. Nothing about its figures is checked.
 */
class SuiteRunsTest {
  @Test
  void everyBenchmarkRuns() throws Exception {
    Options options =
        new OptionsBuilder()
            .include("dev\\.aerun\\..*Bench\\..*")
            .forks(0)
            .warmupIterations(0)
            .measurementIterations(1)
            .measurementTime(TimeValue.milliseconds(50))
            .verbosity(VerboseMode.SILENT)
            .shouldFailOnError(true)
            .build();
    Collection<RunResult> results = new Runner(options).run();
    assertFalse(results.isEmpty(), "no benchmark ran");
  }
}
