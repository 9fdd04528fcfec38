package dev.aerun.e2e;

/** What apps see, on Jetty's ee11 environment. */
class Ee11AppViewTest extends AppViewTest {
  Ee11AppViewTest() {
    super("sample-ee11-app.war");
  }
}
