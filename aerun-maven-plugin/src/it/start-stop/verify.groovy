def report = new File(basedir, 'target/failsafe-reports/TEST-it.HelloIT.xml').getText('UTF-8')
assert report.contains('tests="2"') && report.contains('failures="0"') && report.contains('errors="0"') : report
def log = new File(basedir, 'build.log').getText('UTF-8')
assert log =~ /aerun: serving on port \d+ \(aerun\.port\)/
assert log.contains('aerun: stopped the runtime')
assert !new File(basedir, 'target/aerun/aerun.pid').exists()
def runtimeLog = new File(basedir, 'target/aerun/aerun.log').getText('UTF-8')
assert runtimeLog.contains('drained')
// The socket file goes with the runtime.
assert !new File(basedir, 'target/aerun/app.sock').exists()
return true
