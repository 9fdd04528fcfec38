package dev.aerun.e2e;

class Ee8HeaderContractTest extends HeaderContractTest {
  Ee8HeaderContractTest() {
    super("sample-ee8-app.war");
  }
}
