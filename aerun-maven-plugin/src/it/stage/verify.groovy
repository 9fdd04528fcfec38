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
assert new File(basedir, 'target/aerun/images/java21.tar').exists()
assert !new File(basedir, 'target/aerun/images/java17.tar').exists()
def log = new File(basedir, 'build.log').getText('UTF-8')
assert log.contains('staged hello into ' + out.path) : log
assert log.contains('image: ' + image) : log
return true
