package dev.aerun.e2e.parity;

class Ee10ForwardingParityTest extends ParityTest {
  Ee10ForwardingParityTest() {
    super("sample-ee10-app.war", ParityCase.Variant.FORWARDING);
  }
}
