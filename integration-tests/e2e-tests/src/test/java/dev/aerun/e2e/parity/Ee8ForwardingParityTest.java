package dev.aerun.e2e.parity;

class Ee8ForwardingParityTest extends ParityTest {
  Ee8ForwardingParityTest() {
    super("sample-ee8-app.war", ParityCase.Variant.FORWARDING);
  }
}
