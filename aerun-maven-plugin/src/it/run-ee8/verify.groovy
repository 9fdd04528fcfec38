def probe = new File(basedir, 'target/aerun/probe.txt').getText('UTF-8')
assert probe == '200\nHello EE8 from aerun, legacy mode' : probe
def log = new File(basedir, 'build.log').getText('UTF-8')
assert log =~ /Serving webapp in legacy RPC mode \(EE8, inprocess transport\)/
return true
