package dev.aerun.e2e;

class Ee8LogsTest extends LogsTest {
  Ee8LogsTest() {
    super("sample-logging-ee8-app.war");
  }
}
