package dev.aerun.e2e;

/** What apps see, on Jetty's ee10 environment. */
class Ee10AppViewTest extends AppViewTest {
  Ee10AppViewTest() {
    super("sample-ee10-app.war");
  }
}
