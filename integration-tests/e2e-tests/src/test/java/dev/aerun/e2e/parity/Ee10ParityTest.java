package dev.aerun.e2e.parity;

class Ee10ParityTest extends DirectClientParityTest {
  Ee10ParityTest() {
    super("sample-ee10-app.war");
  }
}
