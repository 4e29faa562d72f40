CREATE TABLE placeholder (x);
