-- MIMIC-IV Clinical Database Demo 2.2, schema mimiciv_hosp: the eleven tables chartstream reads.
--
-- Column names, types and NOT NULLs follow MIMIC-IV's official PostgreSQL build, MIT-LCP/mimic-code
-- mimic-iv/buildmimic/postgres/create.sql (commit c2b632821ea1); primary and foreign keys follow
-- constraint.sql of the same folder (commit b24cb8e3dfe2). Release 2.2 added provider columns that
-- create.sql at that commit lacks; they are declared here as MIMIC-IV 2.2 declares them, VARCHAR(10),
-- at the position the shipped CSV files have them (admissions.admit_provider_id;
-- prescriptions/labevents/microbiologyevents.order_provider_id), so `COPY ... CSV HEADER` maps columns
-- by position without a column list.
--
-- Differences from the official build, all deliberate:
--  * keys are declared here, not after the load: a CDC source needs a key from its first row. Every
--    table has a primary key; REPLICA IDENTITY DEFAULT (the primary key) is stated so logical decoding
--    carries the key of an updated or deleted row.
--  * prescriptions: the official key (pharmacy_id, drug_type, drug) is kept. pharmacy_id alone is NOT
--    unique (one pharmacy order may list several drugs, e.g. a base solution and its additive).
--  * only the foreign keys among these eleven tables are declared. Load order therefore matters:
--    dictionaries, patients, admissions, then the event tables (see eval/mimic/load.sh).
--  * no DROP statements: the file declares; a loader that reloads drops the schema first.

CREATE SCHEMA mimiciv_hosp;

-- dictionaries ------------------------------------------------------------------------------------

CREATE TABLE mimiciv_hosp.d_icd_diagnoses
(
  icd_code CHAR(7) NOT NULL,
  icd_version SMALLINT NOT NULL,
  long_title VARCHAR(255),
  CONSTRAINT d_icd_diagnoses_pk PRIMARY KEY (icd_code, icd_version)
);

CREATE TABLE mimiciv_hosp.d_icd_procedures
(
  icd_code CHAR(7) NOT NULL,
  icd_version SMALLINT NOT NULL,
  long_title VARCHAR(222),
  CONSTRAINT d_icd_procedures_pk PRIMARY KEY (icd_code, icd_version)
);

CREATE TABLE mimiciv_hosp.d_labitems
(
  itemid INTEGER NOT NULL,
  label VARCHAR(50),
  fluid VARCHAR(50),
  category VARCHAR(50),
  CONSTRAINT d_labitems_pk PRIMARY KEY (itemid)
);

-- patients and encounters -------------------------------------------------------------------------

CREATE TABLE mimiciv_hosp.patients
(
  subject_id INTEGER NOT NULL,
  gender CHAR(1) NOT NULL,
  anchor_age SMALLINT,
  anchor_year SMALLINT NOT NULL,
  anchor_year_group VARCHAR(20) NOT NULL,
  dod DATE,
  CONSTRAINT patients_pk PRIMARY KEY (subject_id)
);

CREATE TABLE mimiciv_hosp.admissions
(
  subject_id INTEGER NOT NULL,
  hadm_id INTEGER NOT NULL,
  admittime TIMESTAMP NOT NULL,
  dischtime TIMESTAMP,
  deathtime TIMESTAMP,
  admission_type VARCHAR(40) NOT NULL,
  admit_provider_id VARCHAR(10),
  admission_location VARCHAR(60),
  discharge_location VARCHAR(60),
  insurance VARCHAR(255),
  language VARCHAR(10),
  marital_status VARCHAR(30),
  race VARCHAR(80),
  edregtime TIMESTAMP,
  edouttime TIMESTAMP,
  hospital_expire_flag SMALLINT,
  CONSTRAINT admissions_pk PRIMARY KEY (hadm_id),
  CONSTRAINT admissions_patients_fk FOREIGN KEY (subject_id) REFERENCES mimiciv_hosp.patients (subject_id)
);

CREATE TABLE mimiciv_hosp.transfers
(
  subject_id INTEGER NOT NULL,
  hadm_id INTEGER,
  transfer_id INTEGER NOT NULL,
  eventtype VARCHAR(10),
  careunit VARCHAR(255),
  intime TIMESTAMP,
  outtime TIMESTAMP,
  CONSTRAINT transfers_pk PRIMARY KEY (transfer_id),
  CONSTRAINT transfers_patients_fk FOREIGN KEY (subject_id) REFERENCES mimiciv_hosp.patients (subject_id)
);

-- coded events ------------------------------------------------------------------------------------

-- Composite key as MIMIC declares it; icd_code/icd_version are nullable in create.sql and become
-- NOT NULL through the key. Codes have no foreign key to the dictionary (as in the official build).
CREATE TABLE mimiciv_hosp.diagnoses_icd
(
  subject_id INTEGER NOT NULL,
  hadm_id INTEGER NOT NULL,
  seq_num INTEGER NOT NULL,
  icd_code CHAR(7),
  icd_version SMALLINT,
  CONSTRAINT diagnoses_icd_pk PRIMARY KEY (hadm_id, seq_num, icd_code, icd_version),
  CONSTRAINT diagnoses_icd_patients_fk FOREIGN KEY (subject_id) REFERENCES mimiciv_hosp.patients (subject_id),
  CONSTRAINT diagnoses_icd_admissions_fk FOREIGN KEY (hadm_id) REFERENCES mimiciv_hosp.admissions (hadm_id)
);

CREATE TABLE mimiciv_hosp.procedures_icd
(
  subject_id INTEGER NOT NULL,
  hadm_id INTEGER NOT NULL,
  seq_num INTEGER NOT NULL,
  chartdate TIMESTAMP(0) NOT NULL,
  icd_code VARCHAR(7),
  icd_version SMALLINT,
  CONSTRAINT procedures_icd_pk PRIMARY KEY (hadm_id, seq_num, icd_code, icd_version),
  CONSTRAINT procedures_icd_patients_fk FOREIGN KEY (subject_id) REFERENCES mimiciv_hosp.patients (subject_id),
  CONSTRAINT procedures_icd_admissions_fk FOREIGN KEY (hadm_id) REFERENCES mimiciv_hosp.admissions (hadm_id)
);

CREATE TABLE mimiciv_hosp.prescriptions
(
  subject_id INTEGER NOT NULL,
  hadm_id INTEGER NOT NULL,
  pharmacy_id INTEGER NOT NULL,
  poe_id VARCHAR(25),
  poe_seq INTEGER,
  order_provider_id VARCHAR(10),
  starttime TIMESTAMP(3),
  stoptime TIMESTAMP(3),
  drug_type VARCHAR(20) NOT NULL,
  drug VARCHAR(255) NOT NULL,
  formulary_drug_cd VARCHAR(120),
  gsn VARCHAR(255),
  ndc VARCHAR(25),
  prod_strength VARCHAR(255),
  form_rx VARCHAR(25),
  dose_val_rx VARCHAR(100),
  dose_unit_rx VARCHAR(50),
  form_val_disp VARCHAR(50),
  form_unit_disp VARCHAR(50),
  doses_per_24_hrs REAL,
  route VARCHAR(50),
  CONSTRAINT prescriptions_pk PRIMARY KEY (pharmacy_id, drug_type, drug),
  CONSTRAINT prescriptions_patients_fk FOREIGN KEY (subject_id) REFERENCES mimiciv_hosp.patients (subject_id),
  CONSTRAINT prescriptions_admissions_fk FOREIGN KEY (hadm_id) REFERENCES mimiciv_hosp.admissions (hadm_id)
);

CREATE TABLE mimiciv_hosp.microbiologyevents
(
  microevent_id INTEGER NOT NULL,
  subject_id INTEGER NOT NULL,
  hadm_id INTEGER,
  micro_specimen_id INTEGER NOT NULL,
  order_provider_id VARCHAR(10),
  chartdate TIMESTAMP(0) NOT NULL,
  charttime TIMESTAMP(0),
  spec_itemid INTEGER NOT NULL,
  spec_type_desc VARCHAR(100) NOT NULL,
  test_seq INTEGER NOT NULL,
  storedate TIMESTAMP(0),
  storetime TIMESTAMP(0),
  test_itemid INTEGER,
  test_name VARCHAR(100),
  org_itemid INTEGER,
  org_name VARCHAR(100),
  isolate_num SMALLINT,
  quantity VARCHAR(50),
  ab_itemid INTEGER,
  ab_name VARCHAR(30),
  dilution_text VARCHAR(10),
  dilution_comparison VARCHAR(20),
  dilution_value DOUBLE PRECISION,
  interpretation VARCHAR(5),
  comments TEXT,
  CONSTRAINT microbiologyevents_pk PRIMARY KEY (microevent_id),
  CONSTRAINT microbiologyevents_patients_fk FOREIGN KEY (subject_id) REFERENCES mimiciv_hosp.patients (subject_id),
  CONSTRAINT microbiologyevents_admissions_fk FOREIGN KEY (hadm_id) REFERENCES mimiciv_hosp.admissions (hadm_id)
);

CREATE TABLE mimiciv_hosp.labevents
(
  labevent_id INTEGER NOT NULL,
  subject_id INTEGER NOT NULL,
  hadm_id INTEGER,
  specimen_id INTEGER NOT NULL,
  itemid INTEGER NOT NULL,
  order_provider_id VARCHAR(10),
  charttime TIMESTAMP(0),
  storetime TIMESTAMP(0),
  value VARCHAR(200),
  valuenum DOUBLE PRECISION,
  valueuom VARCHAR(20),
  ref_range_lower DOUBLE PRECISION,
  ref_range_upper DOUBLE PRECISION,
  flag VARCHAR(10),
  priority VARCHAR(7),
  comments TEXT,
  CONSTRAINT labevents_pk PRIMARY KEY (labevent_id),
  CONSTRAINT labevents_patients_fk FOREIGN KEY (subject_id) REFERENCES mimiciv_hosp.patients (subject_id),
  CONSTRAINT labevents_d_labitems_fk FOREIGN KEY (itemid) REFERENCES mimiciv_hosp.d_labitems (itemid)
);

-- CDC: the primary key identifies a changed row (this is PostgreSQL's default, stated so it is not
-- changed by accident; REPLICA IDENTITY FULL is not needed with a key).
ALTER TABLE mimiciv_hosp.d_icd_diagnoses REPLICA IDENTITY DEFAULT;
ALTER TABLE mimiciv_hosp.d_icd_procedures REPLICA IDENTITY DEFAULT;
ALTER TABLE mimiciv_hosp.d_labitems REPLICA IDENTITY DEFAULT;
ALTER TABLE mimiciv_hosp.patients REPLICA IDENTITY DEFAULT;
ALTER TABLE mimiciv_hosp.admissions REPLICA IDENTITY DEFAULT;
ALTER TABLE mimiciv_hosp.transfers REPLICA IDENTITY DEFAULT;
ALTER TABLE mimiciv_hosp.diagnoses_icd REPLICA IDENTITY DEFAULT;
ALTER TABLE mimiciv_hosp.procedures_icd REPLICA IDENTITY DEFAULT;
ALTER TABLE mimiciv_hosp.prescriptions REPLICA IDENTITY DEFAULT;
ALTER TABLE mimiciv_hosp.microbiologyevents REPLICA IDENTITY DEFAULT;
ALTER TABLE mimiciv_hosp.labevents REPLICA IDENTITY DEFAULT;
