package dev.aerun.appengine.descriptor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class JunkInputTest {

  private static List<byte[]> junk() {
    List<byte[]> inputs = new ArrayList<>();
    for (String s :
        List.of(
            "",
            " ",
            "\n\t  \r\n",
            "<",
            ">",
            "<?xml version=\"1.0\"?>",
            "<appengine-web-app>",
            "</appengine-web-app>",
            "<appengine-web-app/><appengine-web-app/>",
            "<appengine-web-app/>trailing",
            "<appengine-web-app><runtime>java17</runtime>",
            "<appengine-web-app xmlns='urn:x'/>",
            "<appengine-web-app><system-properties><property/></system-properties></appengine-web-app>",
            "<appengine-web-app><static-files><include path='/a' expiration=''/></static-files>"
                + "</appengine-web-app>",
            "<appengine-web-app><automatic-scaling><custom-metrics><custom-metric><x/>"
                + "</custom-metric></custom-metrics></automatic-scaling></appengine-web-app>",
            "<appengine-web-app><manual-scaling><instances>99999999999</instances>"
                + "</manual-scaling></appengine-web-app>",
            "<?xml version=\"1.0\" encoding=\"NOPE\"?><appengine-web-app/>",
            "<?xml version=\"9\"?><appengine-web-app/>",
            "<appengine-web-app>&#0;</appengine-web-app>",
            "<appengine-web-app>&#xFFFFFFFF;</appengine-web-app>",
            "{\"json\": true}",
            "\uFEFF\uFEFF<appengine-web-app/>",
            "<a:appengine-web-app xmlns:a='urn:q'/>")) {
      inputs.add(s.getBytes(StandardCharsets.UTF_8));
    }
    inputs.add(new byte[] {0, 0, 0, 0});
    inputs.add(new byte[] {(byte) 0xFF, (byte) 0xFE, 0, 0x3C});
    inputs.add(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF});
    inputs.add(new byte[] {(byte) 0xC3, (byte) 0x28});
    inputs.add("<appengine-web-app>".repeat(5000).getBytes(StandardCharsets.UTF_8));
    Random random = new Random(42);
    for (int i = 0; i < 200; i++) {
      byte[] b = new byte[random.nextInt(200)];
      random.nextBytes(b);
      inputs.add(b);
    }
    byte[] valid =
        Descriptors.wrap(
                "<runtime>java17</runtime><static-files><include path='/a' expiration='1d'>"
                    + "<http-header name='a' value='b'/></include></static-files>\n")
            .getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < 300; i++) {
      byte[] m = valid.clone();
      for (int k = 0; k < 1 + random.nextInt(4); k++) {
        m[random.nextInt(m.length)] = (byte) random.nextInt(256);
      }
      inputs.add(m);
      inputs.add(java.util.Arrays.copyOf(valid, random.nextInt(valid.length)));
    }
    return inputs;
  }

  @Test
  void junkInputOnlyEverThrowsDescriptorException() {
    int rejected = 0;
    for (byte[] input : junk()) {
      try {
        AppEngineWebXmlParser.parse(new ByteArrayInputStream(input), "junk.xml");
      } catch (DescriptorException e) {
        rejected++;
        assertEquals("junk.xml", e.file());
        assertTrue(e.getMessage().startsWith("junk.xml:"), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), e.getMessage());
      } catch (Throwable t) {
        fail("unchecked exception for input " + new String(input, StandardCharsets.ISO_8859_1), t);
      }
    }
    assertTrue(rejected > 0);
  }

  @Test
  void failingStreamIsADescriptorException() {
    InputStream broken =
        new InputStream() {
          @Override
          public int read() throws IOException {
            throw new IOException("disk on fire");
          }
        };
    try {
      AppEngineWebXmlParser.parse(broken, "broken.xml");
      fail("expected DescriptorException");
    } catch (DescriptorException e) {
      assertEquals("broken.xml", e.file());
    }
  }

  @Test
  void nullFileNameIsTolerated() {
    try {
      AppEngineWebXmlParser.parse(new ByteArrayInputStream(new byte[0]), null);
      fail("expected DescriptorException");
    } catch (DescriptorException e) {
      assertTrue(e.getMessage().startsWith("<unknown>:"));
    }
  }
}
