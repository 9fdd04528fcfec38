// A small stand-in for the java21 runtime image, written by the project's own image writer and
// installed where `mvn install` of the images module puts the real one.
import java.nio.file.Files
import java.nio.file.Path

def rootfs = new File(basedir, 'target/stand-in-rootfs/etc')
rootfs.mkdirs()
new File(rootfs, 'passwd').text = 'nonroot:x:65532:65532::/home/nonroot:/sbin/nologin\n'
def folder = new File(localRepositoryPath, "dev/aerun/images/${aerunVersion}")
folder.mkdirs()
def archive = new File(folder, "images-${aerunVersion}-java21.tar")
dev.aerun.stage.oci.ImageTool.main([
    '--out', archive.path,
    '--ref', 'aerun/java21:latest',
    '--layer', rootfs.parentFile.path + '@rootfs',
    '--entrypoint', '["/usr/bin/java","-jar","/opt/aerun/runtime-main.jar"]',
    '--env', 'PORT=8080',
    '--user', '65532:65532'] as String[])
assert new File(folder, archive.name + '.digest').isFile()
return true
