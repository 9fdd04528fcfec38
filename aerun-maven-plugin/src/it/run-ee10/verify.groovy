def probe = new File(basedir, 'target/aerun/probe.txt').getText('UTF-8')
assert probe == '200\nHello EE10 from aerun in Development' : probe
def log = new File(basedir, 'build.log').getText('UTF-8')
assert log =~ /Serving webapp in HttpConnector mode \(EE10\) on Jetty .* at http:\/\/127\.0\.0\.1:\d+\/ - started in \d+ ms; development: loopback clients naming localhost, 127\.0\.0\.0\/8, \[::1\], devbox\.test trusted, forwarding headers only from TrustPolicy\[192\.0\.2\.0\/24\], CONFIDENTIAL paths served over plain HTTP to this machine, watching/
assert log.contains('drained')
return true
