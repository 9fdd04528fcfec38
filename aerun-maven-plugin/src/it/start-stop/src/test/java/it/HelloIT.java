package it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** Runs against the app aerun:start serves; the port comes from the aerun.port property. */
class HelloIT {
  @Test
  void helloAnswersFromTheRealRuntime() throws Exception {
    String port = System.getProperty("aerun.port");
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/hello")).build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode());
    assertEquals("Hello EE10 from aerun in Development", response.body());
  }
}
