import java.util.zip.GZIPInputStream

def out = new File(basedir, 'target/aerun-stage')
def digest = new File(out, 'image.tar.digest').getText('UTF-8').trim()
assert digest ==~ /sha256:[0-9a-f]{64}/ : digest
def image = 'europe-west1-docker.pkg.dev/p/r/hello@' + digest
def service = new File(out, 'service.yaml').getText('UTF-8')
assert service.contains('name: hello') : service
assert service.contains('image: ' + image) : service
assert service.contains('autoscaling.knative.dev/maxScale: "4"') || service.contains("autoscaling.knative.dev/maxScale: '4'") : service
assert service.contains('GREETING') : service
assert new File(out, 'kubernetes.yaml').getText('UTF-8').contains(image)
assert new File(out, 'app.yaml').isFile() && new File(out, 'Dockerfile').isFile()
assert new File(out, 'app/WEB-INF/classes/it/HelloServlet.class').isFile()
// The JSP compiled by default (precompileJsps), by the launcher's Jasper, its path mapped to it.
assert new File(out, 'app/hello.jsp').isFile()
assert new File(out, 'app/WEB-INF/classes/org/apache/jsp/hello_jsp.class').isFile()
def webXml = new File(out, 'app/WEB-INF/web.xml').getText('UTF-8')
assert webXml.contains('<servlet-class>org.apache.jsp.hello_jsp</servlet-class>') : webXml
assert webXml.contains('<url-pattern>/hello.jsp</url-pattern>') : webXml
// The app's image is built on the stand-in setup.groovy installed, whatever else the repositories
// hold: its one layer is the app image's first.
def standIn = new File(localRepositoryPath, "dev/aerun/images/${aerunVersion}/images-${aerunVersion}-java21.tar")
def base = dev.aerun.stage.oci.OciImage.read(standIn.toPath(), new File(basedir, 'target/blobs-base').toPath())
def app = dev.aerun.stage.oci.OciImage.read(new File(out, 'image.tar').toPath(), new File(basedir, 'target/blobs-app').toPath())
assert base.layers().size() == 1 && app.layers()[0].digest() == base.layers()[0].digest() : app.layers()
// Each runtime image is linked exactly when the repositories the build resolves from have it: the
// stand-in; java17 and java25 only if the user's own repository (which the projects resolve from
// too) holds one, as after `mvn install` of the runtime's images module.
def images = new File(basedir, 'target/aerun/images')
assert new File(images, 'java21.tar').exists()
for (runtime in ['java17', 'java25']) {
  def resolved = new File(localRepositoryPath, "dev/aerun/images/${aerunVersion}/images-${aerunVersion}-${runtime}.tar").exists()
  assert new File(images, "${runtime}.tar").exists() == resolved : runtime
}
def log = new File(basedir, 'build.log').getText('UTF-8')
assert log.contains('staged hello into ' + out.path) : log
assert log.contains('image: ' + image) : log
return true
