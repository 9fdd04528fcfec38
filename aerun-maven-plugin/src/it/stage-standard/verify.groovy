def out = new File(basedir, 'target/aerun-stage')
assert new File(out, 'WEB-INF/classes/it/HelloServlet.class').isFile()
// The JSP compiled by default (precompileJsps) with the staged runtime's EE11 Jasper, mapped.
assert new File(out, 'WEB-INF/classes/org/apache/jsp/hello_jsp.class').isFile()
def webXml = new File(out, 'WEB-INF/web.xml').getText('UTF-8')
assert webXml.contains('<servlet-class>org.apache.jsp.hello_jsp</servlet-class>') : webXml
assert webXml.contains('<url-pattern>/hello.jsp</url-pattern>') : webXml
assert new File(out, 'WEB-INF/aerun/runtime-main.jar').isFile()
assert new File(out, 'WEB-INF/aerun/lib/ee11').isDirectory()
assert !new File(out, 'WEB-INF/aerun/lib/apihost').exists()
assert !new File(out, 'image.tar').exists()
def descriptor = new File(out, 'WEB-INF/appengine-web.xml').getText('UTF-8')
assert descriptor.contains('<entrypoint>java -XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError -jar WEB-INF/aerun/runtime-main.jar --log-format json --mode legacy --ee ee11 .</entrypoint>') : descriptor
assert descriptor.contains('<env-var name="GREETING" value="hi"/>') : descriptor
def log = new File(basedir, 'build.log').getText('UTF-8')
assert log.contains('staged hello for App Engine standard (java25, EE11, legacy RPC mode)') : log
return true
