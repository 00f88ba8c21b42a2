-- The rights Debezium's MySQL connector needs for user chartstream (created by the image from MYSQL_USER).
GRANT SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO 'chartstream'@'%';
FLUSH PRIVILEGES;
