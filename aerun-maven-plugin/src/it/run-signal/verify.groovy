// SIGINT or SIGTERM to the Maven process alone (not its process group, not the fork) drains and
// stops the forked runtime before Maven exits.
import java.util.concurrent.TimeUnit

def settings = new File(basedir, '../interpolated-settings.xml').canonicalFile
assert settings.isFile() : settings
def mvn = new File(System.getProperty('maven.home'), 'bin/mvn')
assert mvn.canExecute() : mvn

// A build started in the background by a non-interactive shell inherits SIGINT ignored, and a JVM
// leaves a signal ignored at its start ignored: Maven is started with SIGINT at its default, as in
// the terminal whose Ctrl-C this stands for (coreutils' env resets it and execs, keeping the pid).
def command = [mvn.path, '-B', '-o', '-s', settings.path,
    "-Dmaven.repo.local=${localRepositoryPath}".toString(), 'aerun:run', '-Daerun.port=0']
def resets = new ProcessBuilder('env', '--default-signal=INT', 'true').start()
if (resets.waitFor(30, TimeUnit.SECONDS) && resets.exitValue() == 0) {
  command = ['env', '--default-signal=INT'] + command
}

for (signal in ['INT', 'TERM']) {
  def log = new File(basedir, "signal-${signal}.log")
  def maven = new ProcessBuilder(command)
      .directory(basedir).redirectErrorStream(true).redirectOutput(log).start()
  try {
    def started = null
    def deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5)
    while (started == null) {
      def line = dev.aerun.startline.StartLine.find(log.text)
      if (line.isPresent()) {
        assert line.get().host() == '127.0.0.1' && log.text.contains('Serving webapp in ') : log.text
        started = line.get().port()
      } else {
        assert maven.alive && System.nanoTime() < deadline : log.text
        Thread.sleep(200)
      }
    }
    assert new URL("http://127.0.0.1:${started}/hello").text.startsWith('Hello EE10')
    // The mvn script execs the JVM: its pid is Maven's. The fork is Maven's one java child.
    def forks = maven.toHandle().descendants()
        .filter { h -> h.info().command().map { it.endsWith('/java') }.orElse(false) }
        .toList()
    assert forks.size() == 1 : forks
    def fork = forks[0]

    def kill = new ProcessBuilder('kill', "-${signal}", String.valueOf(maven.pid())).start()
    assert kill.waitFor(30, TimeUnit.SECONDS) && kill.exitValue() == 0
    assert maven.waitFor(3, TimeUnit.MINUTES) : "Maven still running after SIG${signal}:\n" + log.text
    assert fork.onExit().get(1, TimeUnit.MINUTES) != null
    assert !fork.alive
    assert log.text.contains('drained') : "SIG${signal}: the fork drained:\n" + log.text
  } finally {
    maven.toHandle().descendants().forEach { it.destroyForcibly() }
    maven.destroyForcibly()
  }
}
return true
