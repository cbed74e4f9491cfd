      sum: add(scaled) + p.offset,
      method() { return [a, total, scaled]; },
  try {
    retry(attempts);
  } catch ([first, second = first]) {
  }
  return [err, last, attempts];
