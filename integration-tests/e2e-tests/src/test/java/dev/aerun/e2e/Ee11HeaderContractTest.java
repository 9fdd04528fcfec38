package dev.aerun.e2e;

class Ee11HeaderContractTest extends HeaderContractTest {
  Ee11HeaderContractTest() {
    super("sample-ee11-app.war");
  }
}
