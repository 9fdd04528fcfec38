def put = new File(basedir, 'target/failsafe-reports/TEST-it.PutIT.xml').getText('UTF-8')
assert put.contains('tests="1"') && put.contains('failures="0"') && put.contains('errors="0"') : put
def get = new File(basedir, 'target/failsafe-reports/TEST-it.GetIT.xml').getText('UTF-8')
assert get.contains('tests="1"') && get.contains('failures="0"') && get.contains('errors="0"') : get
assert new File(basedir, 'target/aerun/api-data/datastore.bin').length() > 0
def runtimeLog = new File(basedir, 'target/aerun/aerun.log').getText('UTF-8')
assert runtimeLog.contains('local API host at 127.0.0.1:')
return true
