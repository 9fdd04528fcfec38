package dev.aerun.e2e.parity;

class Ee11ParityTest extends DirectClientParityTest {
  Ee11ParityTest() {
    super("sample-ee11-app.war");
  }
}
