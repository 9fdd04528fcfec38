package dev.aerun.e2e;

class Ee11SampleAppTest extends SampleAppTest {
  Ee11SampleAppTest() {
    super("sample-ee11-app.war", "EE11");
  }
}
