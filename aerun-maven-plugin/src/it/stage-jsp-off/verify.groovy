// With precompileJsps off, stage leaves the JSP as it is: no servlet class compiled from it, no
// WEB-INF/web.xml mapping its path (the app has no web.xml, and stage writes none).
def out = new File(basedir, 'target/aerun-stage')
assert new File(out, 'hello.jsp').isFile()
assert new File(out, 'WEB-INF/classes/it/HelloServlet.class').isFile()
assert !new File(out, 'WEB-INF/classes/org/apache/jsp').exists()
assert !new File(out, 'WEB-INF/web.xml').exists()
def log = new File(basedir, 'build.log').getText('UTF-8')
assert log.contains('staged hello for App Engine standard (java25, EE11, legacy RPC mode)') : log
assert !log.contains('JSPs not precompiled') : log
return true
