package dev.aerun.appengine.descriptor;

/** One of the three mutually exclusive scaling blocks. */
public sealed interface Scaling permits AutomaticScaling, BasicScaling, ManualScaling {}
